"""Runs `python3 ARGS` with system calls refused as the seccomp filters of container runtimes
refuse them: `python3 refuse_clone.py MODE -m stepscope_recorder ...`, MODE being
- `clone3`: clone3 refused with ENOSYS (a filter cannot read clone3's flags, so runtimes refuse
  it all), what Docker's default profile does;
- `clone-parent`: that, and clone with CLONE_PARENT refused with EPERM, so that the fork server
  cannot fork a task child as the recorder's own (child._fork_to_parent gives None) and forks
  a middle process per task instead.
The filter is inherited by every process started from there (the recorder, its fork servers,
the task children). Linux on x86_64 or aarch64; exits 3 where the filter cannot be installed."""
import ctypes
import os
import sys

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SYS_CLONE3 = 435
SYS_CLONE = {"x86_64": 56, "aarch64": 220}
CLONE_PARENT = 0x00008000
ENOSYS, EPERM = 38, 1
# BPF: load a word of seccomp_data (nr at 0, the first argument's low half at 16), jump, return.
LOAD, JEQ, JSET, RET = 0x20, 0x15, 0x45, 0x06
ALLOW, ERRNO = 0x7fff0000, 0x00050000


class SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]


def program(mode, machine):
    clone3 = [SockFilter(LOAD, 0, 0, 0),
              SockFilter(JEQ, 0, 1, SYS_CLONE3),
              SockFilter(RET, 0, 0, ERRNO | ENOSYS)]
    parent = [SockFilter(JEQ, 0, 3, SYS_CLONE[machine]),   # not clone: allow (3 on)
              SockFilter(LOAD, 0, 0, 16),
              SockFilter(JSET, 0, 1, CLONE_PARENT),
              SockFilter(RET, 0, 0, ERRNO | EPERM)]
    return clone3 + (parent if mode == "clone-parent" else []) + [SockFilter(RET, 0, 0, ALLOW)]


def main():
    machine = os.uname().machine
    if len(sys.argv) < 2 or sys.argv[1] not in ("clone3", "clone-parent") or machine not in SYS_CLONE:
        sys.exit(3)
    filters = program(sys.argv[1], machine)
    prog = (SockFilter * len(filters))(*filters)
    fprog = SockFprog(len(filters), prog)
    libc = ctypes.CDLL(None, use_errno=True)
    if (libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
            or libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0):
        sys.exit(3)
    os.execv(sys.executable, [sys.executable] + sys.argv[2:])


if __name__ == "__main__":
    main()
