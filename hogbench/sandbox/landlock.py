"""Landlock: what the kernel keeps a worker from doing to processes and files outside it.

Standard library only: the worker (``worker.py``) loads this file from beside itself, by path.
A Landlock domain (Linux 5.13 and later, where the kernel enables it) cannot trace or read the
memory of a process outside it (``/proc/<pid>/mem``, ``process_vm_readv``, ``pidfd_getfd``)
and, from Linux 6.12, cannot signal one nor reach its abstract Unix sockets: so even without
bwrap a worker cannot touch hogbench. Without bwrap (``files=True``) the domain also refuses
every change to the file system: writing, truncating, creating, removing, renaming and linking
files, and device ioctls.
"""

import ctypes
import struct

_CREATE_RULESET, _RESTRICT_SELF = 444, 446  # the same on every architecture
_VERSION = 1  # LANDLOCK_CREATE_RULESET_VERSION
# handled_access_fs: WRITE_FILE, REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR, MAKE_REG,
# MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM (ABI 1); REFER (2); TRUNCATE (3); IOCTL_DEV (5)
_FS = {1: 0b1_1111_1111_0010, 2: 1 << 13, 3: 1 << 14, 5: 1 << 15}
_SCOPES = 0b11  # ABSTRACT_UNIX_SOCKET, SIGNAL (ABI 6)


def restrict(files: bool) -> int:
    """Put this process in a Landlock domain (FILES: refusing changes to the file system too).
    Returns the Landlock ABI version used, 0 where there is none (then nothing is restricted).
    Needs no_new_privs, which the seccomp filter has set."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        abi = libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_VERSION))
    except (OSError, AttributeError):
        return 0
    if abi < 1:
        return 0
    access = sum(bits for version, bits in _FS.items() if version <= abi) if files else 0
    scoped = _SCOPES if abi >= 6 else 0
    if not access and not scoped:
        # Nothing to scope on this kernel: a domain that handles making block devices (which
        # nothing here does) still keeps it from tracing processes outside it.
        access = 1 << 11
    if abi >= 6:
        attr = struct.pack("QQQ", access, 0, scoped)
    elif abi >= 4:
        attr = struct.pack("QQ", access, 0)
    else:
        attr = struct.pack("Q", access)
    buffer = ctypes.create_string_buffer(attr, len(attr))
    fd = libc.syscall(_CREATE_RULESET, buffer, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))
    if fd < 0:
        return 0
    try:
        done = libc.syscall(_RESTRICT_SELF, ctypes.c_int(fd), ctypes.c_uint32(0)) == 0
    finally:
        libc.close(fd)
    return abi if done else 0
