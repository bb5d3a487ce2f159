"""Tries to reach into hogbench, its parent: /proc/<ppid>/mem, process_vm_readv, pidfd_getfd, pidfd_send_signal, a queued signal and SIGIO aimed at it. Expected: valid (every way fails), with or without bubblewrap."""

import ctypes
import fcntl
import os
import signal

libc = ctypes.CDLL(None, use_errno=True)
parent = os.getppid()
reached = []
try:
    with open(f"/proc/{parent}/mem", "rb") as memory:
        reached.append("mem")
except OSError:
    pass
buffer = ctypes.create_string_buffer(8)
local = (ctypes.c_void_p * 2)(ctypes.addressof(buffer), 8)
remote = (ctypes.c_void_p * 2)(0x400000, 8)
if libc.syscall(310, parent, local, 1, remote, 1, 0) >= 0:  # process_vm_readv (x86_64)
    reached.append("process_vm_readv")
pidfd = libc.syscall(434, parent, 0)  # pidfd_open
if pidfd >= 0:
    if libc.syscall(438, pidfd, 0, 0) >= 0:  # pidfd_getfd: its fd 0
        reached.append("pidfd_getfd")
    if libc.syscall(424, pidfd, 0, None, 0) == 0:  # pidfd_send_signal: signal 0, a probe
        reached.append("pidfd_send_signal")
info = ctypes.create_string_buffer(128)
if libc.syscall(129, parent, 0, info) == 0:  # rt_sigqueueinfo, signal 0
    reached.append("rt_sigqueueinfo")
read_end, write_end = os.pipe()
try:
    fcntl.fcntl(read_end, fcntl.F_SETOWN, parent)
    reached.append("F_SETOWN")
except OSError:
    pass
try:
    os.kill(parent, 0)
    reached.append("kill")
except OSError:
    pass
signal.signal(signal.SIGTERM, signal.SIG_DFL)


def final_strategy(score, opponent_score):
    return " ".join(reached) if reached else 4
