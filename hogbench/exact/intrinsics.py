"""Two machine operations numba does not spell, written in LLVM's terms for the kernels.

``prefetch`` asks for memory a kernel will read soon. ``line_sums`` sums rows of a grid of
pairs as vectors: numba's compiler, left to the eight sums spelt out, vectorised across the
outcomes instead, gathering each value on its own (measured over 16 benchmark-like hog-su21
tables, one core: 0.20 ms a pair against 0.30).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

#: Values ``line_sums`` adds at once: one cache line of doubles.
LANES = 8


def _pointer(context, builder, array_type, array, index):
    """The address of ARRAY[INDEX] (a 1-d array), unchecked."""
    ary = context.make_array(array_type)(context, builder, array)
    return cgutils.get_item_pointer2(
        context, builder, ary.data, cgutils.unpack_tuple(builder, ary.shape),
        cgutils.unpack_tuple(builder, ary.strides), array_type.layout, [index],
        wraparound=False, boundscheck=False,
    )  # fmt: skip


@intrinsic
def prefetch(typingctx, array, index):
    """Ask the processor to bring ARRAY[INDEX] into cache, without waiting for it (LLVM's
    prefetch: a read, kept in every cache level). For loads whose address is known several
    iterations ahead but would otherwise wait on a chain of misses."""

    def codegen(context, builder, signature, args):
        pointer = _pointer(context, builder, signature.args[0], *args)
        i32, byte_pointer = ir.IntType(32), ir.IntType(8).as_pointer()
        pointer = builder.bitcast(pointer, byte_pointer)  # one declaration for every type
        function_type = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
        function = cgutils.get_or_insert_function(builder.module, function_type, "llvm.prefetch.p0")
        builder.call(function, [pointer, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


@intrinsic
def line_sums(typingctx, start, to, p, lo, hi, values, stride, offset):
    """The LANES sums ``start + sum(p[j] * values[to[j] * stride + offset + k])`` over j from
    LO to HI, for k below LANES, as a tuple: one vector of LANES values per term, kept in
    vector registers from the first term to the last."""
    i64 = ir.IntType(64)
    lanes = ir.VectorType(ir.DoubleType(), LANES)

    def codegen(context, builder, signature, args):
        kinds = signature.args
        start_, to_, p_, lo_, hi_, values_, stride_, offset_ = (
            context.cast(builder, arg, kind, types.int64) if isinstance(kind, types.Integer)
            else arg
            for arg, kind in zip(args, kinds, strict=True)
        )  # fmt: skip

        def splat(x):
            vector = ir.Constant(lanes, ir.Undefined)
            for k in range(LANES):
                vector = builder.insert_element(vector, x, ir.IntType(32)(k))
            return vector

        total = cgutils.alloca_once(builder, lanes)  # promoted to a register by LLVM
        builder.store(splat(start_), total)
        with cgutils.for_range(builder, builder.sub(hi_, lo_)) as loop:
            j = builder.add(lo_, loop.index)
            place = builder.sext(builder.load(_pointer(context, builder, kinds[1], to_, j)), i64)
            weight = builder.load(_pointer(context, builder, kinds[2], p_, j))
            at = builder.add(builder.mul(place, stride_), offset_)
            line = builder.bitcast(
                _pointer(context, builder, kinds[5], values_, at), lanes.as_pointer()
            )
            term = builder.fmul(splat(weight), builder.load(line, align=8))
            builder.store(builder.fadd(builder.load(total), term), total)
        result = builder.load(total)
        sums = cgutils.get_null_value(context.get_value_type(signature.return_type))
        for k in range(LANES):
            sums = builder.insert_value(sums, builder.extract_element(result, ir.IntType(32)(k)), k)
        return sums

    return types.UniTuple(types.float64, LANES)(
        start, to, p, lo, hi, values, stride, offset
    ), codegen
