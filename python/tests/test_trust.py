"""The parent trusts only what it can check: the channel's messages and its own view of how
the child ended (runner.py, channel.py). Unit tests of those two decisions."""
import os
import signal
import socket
import tempfile
import threading
import unittest

from stepscope_recorder import channel, runner

LIMITS = {"seconds": 10.0, "memory_mb": 1024}
HEADER = b'{"type": "trace"}\n'
TOKEN = b"t" * channel.TOKEN_BYTES


def line(seq):
    return b'{"type": "event", "seq": %d}\n' % seq


class Channel(unittest.TestCase):
    def receive(self, *messages, fds=None):
        """Sends raw messages from the child's end; returns (receiver, file bytes)."""
        parent, child = channel.socket_pair()
        out = tempfile.TemporaryFile()
        self.addCleanup(out.close)
        out.write(HEADER)
        rec = channel.Receiver(parent, TOKEN, out, len(HEADER))
        t = threading.Thread(target=rec.run)
        t.start()
        for m in messages:
            if fds is not None and m is fds[0]:
                child.sendmsg([m], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, bytes(memoryview(fds[1]).cast("B")))])
            else:
                child.sendmsg([m])
        child.close()
        t.join()
        parent.close()
        out.seek(0)
        return rec, out.read()

    def test_data_split_anywhere_is_written_and_counted(self):
        body = line(0) + line(1) + line(2)
        rec, data = self.receive(TOKEN + channel.DATA + body[:7], TOKEN + channel.DATA + body[7:50],
                                 TOKEN + channel.DATA + body[50:] + b'{"type": "ev',
                                 TOKEN + channel.END + b'{"exit": "normal"}')
        self.assertIsNone(rec.tampered)
        self.assertEqual((rec.lines, rec.end), (3, b'{"exit": "normal"}'))
        self.assertEqual(data, HEADER + body + b'{"type": "ev')
        self.assertEqual(rec.last_newline + 1, len(HEADER + body))  # where the cut line starts

    def test_a_message_without_the_token_stops_the_trace_there(self):
        rec, data = self.receive(TOKEN + channel.DATA + line(0),
                                 b"x" * 16 + channel.DATA + line(1),  # a forged record
                                 TOKEN + channel.DATA + line(2),
                                 TOKEN + channel.END + b"{}")
        self.assertEqual(rec.tampered, "a message the recorder did not send (no token), after 1 events")
        self.assertEqual(data, HEADER + line(0))
        self.assertIsNone(rec.end)

    def test_anything_after_the_end_record_is_tampering(self):
        rec, _ = self.receive(TOKEN + channel.END + b"{}", TOKEN + channel.END + b"{}")
        self.assertEqual(rec.tampered, "a message after the end record, after 0 events")

    def test_an_oversized_message_or_passed_file_descriptors_are_tampering(self):
        rec, _ = self.receive(TOKEN + channel.DATA + b"x" * (channel.MAX_PAYLOAD + 10))
        self.assertTrue(rec.tampered.startswith("a message the recorder did not send (too long"))
        r, w = os.pipe()
        self.addCleanup(os.close, r)
        self.addCleanup(os.close, w)
        msg = TOKEN + channel.DATA + line(0)
        rec, data = self.receive(msg, fds=(msg, __import__("array").array("i", [r])))
        self.assertIn("file descriptors", rec.tampered)
        self.assertEqual(data, HEADER)


class DecideEnd(unittest.TestCase):
    """Wait statuses as os.wait4 returns them."""
    EXITED_0, EXITED_3, KILLED = 0, 3 << 8, signal.SIGKILL
    USAGE = type("R", (), {"ru_maxrss": 1000})()

    def end(self, claim, status, timed_out=False, tampered=None):
        rec = channel.Receiver(None, TOKEN, None, 0)
        rec.lines = 5
        rec.end = claim
        rec.tampered = tampered
        return runner.decide_end(rec, status, self.USAGE, timed_out, LIMITS, 0.5)

    normal = b'{"exit": "normal", "reason": null, "seconds": 0.1, "code": 0}'

    def test_the_childs_claim_is_taken_when_the_process_then_exits_as_it_said(self):
        self.assertEqual(self.end(self.normal, self.EXITED_0),
                         {"type": "end", "exit": "normal", "reason": None, "events": 5, "seconds": 0.1})

    def test_a_killed_child_is_never_normal_whatever_it_wrote(self):
        end = self.end(self.normal, self.KILLED)
        self.assertEqual((end["exit"], end["reason"]), ("never", "killed by signal 9"))

    def test_another_exit_status_than_claimed_is_not_an_end(self):
        end = self.end(self.normal, self.EXITED_3)
        self.assertEqual((end["exit"], end["reason"]), ("never", "recorder child exited with status 3 before the end"))
        end = self.end(None, self.EXITED_0)
        self.assertEqual((end["exit"], end["reason"]), ("never", "recorder child exited with status 0 before the end"))

    def test_the_parents_timer_and_tampering_win(self):
        self.assertEqual(self.end(self.normal, self.EXITED_0, timed_out=True)["reason"], "time limit 10s")
        end = self.end(self.normal, self.EXITED_0, tampered="a message after the end record")
        self.assertEqual((end["exit"], end["reason"]), ("never", "trace tampered with"))

    def test_a_malformed_claim_marks_the_trace(self):
        rec = channel.Receiver(None, TOKEN, None, 0)
        rec.end = b'{"exit": "fine"}'
        end = runner.decide_end(rec, self.EXITED_0, self.USAGE, False, LIMITS, 0.5)
        self.assertEqual((end["exit"], rec.tampered), ("never", "a malformed end record, after 0 events"))
