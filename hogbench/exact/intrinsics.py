"""Machine operations numba does not spell, written in LLVM's terms for the kernels.

``prefetch`` asks for memory a kernel will read soon. ``grid_values`` computes one player's
values at a state for a grid of 8 by 8 pairs as vectors: numba's compiler, left to eight sums
spelt out, vectorised across the outcomes instead, gathering each value on its own (measured
over 16 benchmark-like hog-su21 tables, one core: 0.20 ms a pair against 0.30).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

#: Values a vector holds: one cache line of doubles, and the side of the grid kernel's grid.
LANES = 8


def _pointer(context, builder, array_type, array, *index):
    """The address of ARRAY[INDEX] (C-contiguous), unchecked."""
    ary = context.make_array(array_type)(context, builder, array)
    return cgutils.get_item_pointer2(
        context, builder, ary.data, cgutils.unpack_tuple(builder, ary.shape),
        cgutils.unpack_tuple(builder, ary.strides), array_type.layout, list(index),
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


def _transpose(builder, rows):
    """The transpose of 8 vectors of 8 doubles, in 24 shuffles (pairs, then pairs of pairs,
    then halves)."""
    mask_type = ir.VectorType(ir.IntType(32), LANES)

    def shuffle(a, b, mask):
        return builder.shuffle_vector(a, b, ir.Constant(mask_type, mask))

    pairs = []
    for k in range(0, LANES, 2):
        pairs.append(shuffle(rows[k], rows[k + 1], [0, 8, 2, 10, 4, 12, 6, 14]))
        pairs.append(shuffle(rows[k], rows[k + 1], [1, 9, 3, 11, 5, 13, 7, 15]))
    quads = [None] * LANES
    for base in (0, 4):
        for k in range(2):
            quads[base + k] = shuffle(
                pairs[base + k], pairs[base + k + 2], [0, 1, 8, 9, 4, 5, 12, 13]
            )
            quads[base + k + 2] = shuffle(
                pairs[base + k], pairs[base + k + 2], [2, 3, 10, 11, 6, 7, 14, 15]
            )
    columns = [None] * LANES
    for k in range(4):
        columns[k] = shuffle(quads[k], quads[k + 4], [0, 1, 2, 3, 8, 9, 10, 11])
        columns[k + 4] = shuffle(quads[k], quads[k + 4], [4, 5, 6, 7, 12, 13, 14, 15])
    return columns


@intrinsic
def grid_values(
    typingctx, row_ptr, row_const, codes, chances, chance_bits, tabs, o, n, i, values, side,
    here, second,
):  # fmt: skip
    """One player's values at the I-th state of the order, for a grid of 8 by 8 pairs: the
    mover's 8 tables are the columns of TABS, choosing TABS[O, a] (a choice's index) there.

    Row ``TABS[O, a] * N + I`` of the grid rows (``rows.GridRows``): ``row_const``, plus per
    entry a chance (CHANCES[code & mask]) times a value at place ``code >> CHANCE_BITS``, XOR
    SIDE (0: A moves, 1: B moves).

    VALUES is one array of places of 64 values. A slot's place 2s holds the values where A
    moves, laid out [b, a], and 2s + 1 those where B moves, laid out [a, b]: for the other
    player's rows, so that the value of the mover's row a against its 8 opponents is one
    vector (a cache line). The 8 sums, one vector each, are transposed and stored at
    VALUES[HERE:HERE + 64]; where SECOND is a place (not -1), they are also stored as they
    are at place SECOND + SIDE (a second slot, laid out for the mover's own rows)."""
    i64 = ir.IntType(64)
    lanes = ir.VectorType(ir.DoubleType(), LANES)

    def codegen(context, builder, signature, args):
        kinds = signature.args
        row_ptr_, row_const_, codes_, chances_, _, tabs_ = args[:6]
        values_ = args[9]
        bits_, o_, n_, i_ = (
            context.cast(builder, args[k], kinds[k], types.int64) for k in (4, 6, 7, 8)
        )
        side_, here_, second_ = (
            context.cast(builder, args[k], kinds[k], types.int64) for k in (10, 11, 12)
        )
        mask = builder.sub(builder.shl(i64(1), bits_), i64(1))

        def load(k, array, *index):
            return builder.load(_pointer(context, builder, kinds[k], array, *index))

        def splat(x):
            vector = ir.Constant(lanes, ir.Undefined)
            for k in range(LANES):
                vector = builder.insert_element(vector, x, ir.IntType(32)(k))
            return vector

        def entry(j):
            code = builder.zext(load(2, codes_, j), i64)
            place = builder.xor(builder.lshr(code, bits_), side_)
            chance = splat(load(3, chances_, builder.and_(code, mask)))
            return builder.mul(place, i64(LANES * LANES)), chance

        def value(at):
            return builder.bitcast(
                _pointer(context, builder, kinds[9], values_, at), lanes.as_pointer()
            )

        sums = []
        for a in range(LANES):
            choice = builder.sext(load(5, tabs_, o_, i64(a)), i64)
            r = builder.add(builder.mul(choice, n_), i_)
            lo, hi = load(0, row_ptr_, r), load(0, row_ptr_, builder.add(r, i64(1)))
            total = cgutils.alloca_once(builder, lanes)  # promoted to a register by LLVM
            builder.store(splat(load(1, row_const_, r)), total)
            with cgutils.for_range(builder, builder.sub(hi, lo)) as loop:
                base, chance = entry(builder.add(lo, loop.index))
                line = builder.load(value(builder.add(base, i64(a * LANES))), align=8)
                builder.store(builder.fadd(builder.load(total), builder.fmul(chance, line)), total)
            sums.append(builder.load(total))
        for k, column in enumerate(_transpose(builder, sums)):
            builder.store(column, value(builder.add(here_, i64(k * LANES))), align=8)
        with builder.if_then(builder.icmp_signed(">=", second_, i64(0))):
            at = builder.mul(builder.add(second_, side_), i64(LANES * LANES))
            for a, row in enumerate(sums):
                builder.store(row, value(builder.add(at, i64(a * LANES))), align=8)
        return context.get_dummy_value()

    return types.void(
        row_ptr, row_const, codes, chances, chance_bits, tabs, o, n, i, values, side, here,
        second,
    ), codegen  # fmt: skip
