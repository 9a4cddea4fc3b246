"""The channel that carries a child's trace records to the parent.

Why not a file the child writes: the traced program runs in the child's process, so it can
find and write any file the child can (the path was in /proc/self/cmdline). Instead:

- The parent makes an AF_UNIX SOCK_SEQPACKET socket pair and passes one end to the child by
  file descriptor. A socket cannot be reopened through /proc/PID/fd, and every send is one
  message that arrives whole and apart from anybody else's sends.
- Every message starts with a random 16-byte token the parent chose for this task (given
  to the child through a pipe it reads and closes before the program starts), then one
  kind byte: DATA (a slice of the trace's JSON Lines) or END (the child's end record).
- The parent writes DATA to a file nobody else can open (see runner.py) and stops at the
  first message it cannot account for: no token, cut short, carrying file descriptors,
  anything after END. That trace keeps what came before and is marked `tampered`.

What this does not stop: code in the traced process that digs the token out of the
recorder's own objects (gc, frames) can send messages the parent accepts. Python gives no
isolation within one process; docs/trace-format.md says what `tampered` does and does not
promise."""
import io
import os

TOKEN_BYTES = 16
DATA = b"D"
END = b"E"
# Messages stay well under the default socket buffer (about 200 KB), so a send never fails
# for size; the parent reads at most this much plus the prefix.
MAX_PAYLOAD = 1 << 16
PREFIX = TOKEN_BYTES + 1


def socket_pair():
    """(parent end, child end); only the child end is inheritable."""
    import socket  # parent side only: the child writes with os.writev, sparing the import
    parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    child.set_inheritable(True)
    try:  # room for a few MB in flight, so the tracer seldom waits for the parent to read
        child.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
    except OSError:
        pass
    return parent, child


class Sender(io.RawIOBase):
    """Child side: a raw stream (wrap it in io.BufferedWriter) that sends DATA messages.
    Each send first checks that the descriptor still names the socket it was given.

    A process forked from the child (os.fork in the traced program, or libc fork through
    ctypes, which skips Python's fork hooks) must never send: the pid check drops its
    writes, and `disable()` (run by the child's fork hook) closes the socket in the copy."""

    def __init__(self, fd, token):
        super().__init__()
        self._fd = fd
        os.set_inheritable(fd, False)  # an exec'd program does not get it either
        self._inode = self._identity()
        self._token = token
        self._pid = os.getpid()
        self._live = True

    def writable(self):
        return True

    def _identity(self):
        st = os.fstat(self._fd)
        return st.st_dev, st.st_ino

    def _send(self, kind, payload):
        if not self._live or os.getpid() != self._pid:
            return
        try:
            same = self._identity() == self._inode
        except OSError:
            same = False
        if not same:
            # The program closed this descriptor (and its number may now name one of its own
            # files): never write trace data there. The parent sees the channel end early.
            self._live = False
            return
        for i in range(0, len(payload), MAX_PAYLOAD):
            # On a SOCK_SEQPACKET socket one writev is one message, sent whole or not at all.
            os.writev(self._fd, [self._token, kind, payload[i:i + MAX_PAYLOAD]])

    def write(self, b):
        view = memoryview(b)
        self._send(DATA, view)
        return len(view)

    def send_end(self, payload):
        """The end record as one message (never split: it is small)."""
        self._send(END, payload)

    def disable(self):
        """In a forked copy: drop everything from now on and close this copy's socket."""
        self._live = False
        try:
            os.close(self._fd)
        except OSError:
            pass


class Receiver:
    """Parent side: reads messages until every sender is gone, appending DATA to `out` (a
    binary file already holding `base` bytes). Afterwards: `end` (the END payload or None),
    `tampered` (None, or what was seen), `lines` (newlines written: complete event lines)
    and `last_newline` (file offset of the last newline in the file)."""

    def __init__(self, sock, token, out, base):
        self._sock = sock
        self._token = token
        self._out = out
        self.end = None
        self.tampered = None
        self.lines = 0
        self.last_newline = base - 1  # the header line's own newline
        self._offset = base
        self._stopped = False

    def stop(self):
        """Makes run() return (from another thread): no more is read or written."""
        import socket
        self._stopped = True
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _refuse(self, what):
        self.tampered = "%s, after %d events" % (what, self.lines)

    def run(self):
        import socket
        sock = self._sock
        token = self._token
        size = MAX_PAYLOAD + PREFIX
        bad_flags = socket.MSG_TRUNC | socket.MSG_CTRUNC
        while True:
            try:
                data, _, flags, _ = sock.recvmsg(size)
            except OSError:
                return
            if not data or self._stopped:
                return  # every copy of the child end is closed, or stop()
            if self.tampered is not None:
                continue  # keep draining so no sender blocks
            if flags & bad_flags:
                self._refuse("a message the recorder did not send (too long, or carrying file descriptors)")
            elif data[:TOKEN_BYTES] != token:
                self._refuse("a message the recorder did not send (no token)")
            elif self.end is not None:
                self._refuse("a message after the end record")
            elif data[TOKEN_BYTES:PREFIX] == DATA:
                payload = memoryview(data)[PREFIX:]
                self._out.write(payload)
                nl = data.rfind(b"\n", PREFIX)
                if nl >= 0:
                    self.lines += data.count(b"\n", PREFIX)
                    self.last_newline = self._offset + nl - PREFIX
                self._offset += len(payload)
            elif data[TOKEN_BYTES:PREFIX] == END:
                self.end = bytes(data[PREFIX:])
            else:
                self._refuse("a message of unknown kind")
