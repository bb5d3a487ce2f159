"""The system-call filter a worker installs on itself before it imports anything submitted.

Standard library only: the worker (``worker.py``) loads this file from beside itself, by path,
inside the sandbox, where nothing of hogbench is importable.
"""

import ctypes
import errno
import os
import struct
import sys

# The audit arch and the syscall numbers of clone and clone3; the sockets (socket, socketpair);
# the fork-likes (fork, vfork); the other ways out: io_uring (whose requests bypass the filter),
# and the ways into another process (ptrace, process_vm_readv, process_vm_writev, kcmp,
# pidfd_open, pidfd_getfd, pidfd_send_signal); the signals that must stay inside the worker
# (kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo: to itself only); fcntl and ioctl,
# whose F_SETOWN, F_SETOWN_EX, FIOSETOWN and SIOCSPGRP would aim SIGIO at another process
# and TIOCSTI would type into a terminal.
_SYSCALLS = {
    "x86_64": (
        0xC000003E,
        56,
        435,
        (41, 53),
        (57, 58),
        (425, 426, 427, 101, 310, 311, 312, 434, 438, 424),
        (62, 200, 234, 129, 297),
        72,
        16,
    ),
    "aarch64": (
        0xC00000B7,
        220,
        435,
        (198, 199),
        (),
        (425, 426, 427, 117, 270, 271, 272, 434, 438, 424),
        (129, 130, 131, 138, 240),
        25,
        29,
    ),
}
_FCNTL_OWNERS = (8, 15)  # F_SETOWN, F_SETOWN_EX
_IOCTL_REFUSED = (0x8901, 0x8902, 0x5412)  # FIOSETOWN, SIOCSPGRP, TIOCSTI


def install() -> bool:
    """Install a seccomp filter refusing new processes and threads, sockets, io_uring, any way
    into another process, signals to anyone but the worker itself, and SIGIO aimed elsewhere.

    Process limits do not bind root, and a fork or thread bomb must not reach the machine even
    then: threads are refused as well as processes, so a file gets the same verdict as root
    and as an ordinary user (for whom RLIMIT_NPROC counts threads). Returns False where there
    is no filter for this machine.
    """
    spec = _SYSCALLS.get(os.uname().machine) if sys.platform.startswith("linux") else None
    if spec is None:
        return False
    arch, clone, clone3, sockets, forks, others, signals, fcntl, ioctl = spec
    ld, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06  # classic BPF opcodes
    allow, kill = 0x7FFF0000, 0x80000000

    def refuse(code: int) -> int:
        return 0x00050000 | code  # SECCOMP_RET_ERRNO

    program = [
        (ld, 0, 0, 4),  # seccomp_data.arch: another ABI (32-bit calls) is killed
        (jeq, 1, 0, arch),
        (ret, 0, 0, kill),
        (ld, 0, 0, 0),  # seccomp_data.nr; x32 numbers are killed
        (jge, 0, 1, 0x40000000),
        (ret, 0, 0, kill),
    ]
    refused = [(nr, errno.EAGAIN) for nr in (*forks, clone)]
    refused.append((clone3, errno.ENOSYS))  # ENOSYS: libc falls back to clone
    refused += [(nr, errno.ENETDOWN) for nr in sockets]
    refused += [(nr, errno.EPERM) for nr in others]
    for nr, code in refused:
        program += [(jeq, 0, 1, nr), (ret, 0, 0, refuse(code))]
    for nr, commands in ((fcntl, _FCNTL_OWNERS), (ioctl, _IOCTL_REFUSED)):
        program += [(jeq, 0, len(commands) + 3, nr), (ld, 0, 0, 24)]  # low half of args[1]
        for i, command in enumerate(commands):
            program.append((jeq, len(commands) - i, 0, command))
        program += [(ret, 0, 0, allow), (ret, 0, 0, refuse(errno.EPERM))]
    me = os.getpid()  # without bwrap a worker could otherwise kill hogbench itself
    for nr in signals:
        program += [
            (jeq, 0, 5, nr),
            (ld, 0, 0, 16),  # the target: low half of args[0]
            (jeq, 2, 0, me),
            (jeq, 1, 0, 0),  # 0: its own process group (the worker's own session)
            (ret, 0, 0, refuse(errno.EPERM)),
            (ret, 0, 0, allow),
        ]
    program.append((ret, 0, 0, allow))
    code = b"".join(struct.pack("HBBI", *insn) for insn in program)
    filters = ctypes.create_string_buffer(code, len(code))
    fprog = ctypes.create_string_buffer(struct.pack("HP", len(program), ctypes.addressof(filters)))
    libc = ctypes.CDLL(None, use_errno=True)
    ulong = ctypes.c_ulong
    if libc.prctl(38, ulong(1), ulong(0), ulong(0), ulong(0)):  # PR_SET_NO_NEW_PRIVS
        return False
    # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
    return libc.prctl(22, ulong(2), ulong(ctypes.addressof(fprog)), ulong(0), ulong(0)) == 0
