"""The output trace file: written unnamed, given its name only when complete.

The file is opened with O_TMPFILE in the output's folder: it has no name while traces are
appended, so a traced program cannot find it, and if the recorder dies in any way (even
SIGKILL) nothing is left behind. `commit` links it into the folder under a temporary name
and renames that over the output (one atomic step for readers). Where the file system has
no O_TMPFILE, a named `OUT.partial` is used instead and removed on every handled exit."""
import os
import secrets
import shutil


class Output:
    def __init__(self, path):
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        self.name = os.path.basename(path)
        self._dir = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        self.partial = None
        try:
            fd = os.open(".", os.O_TMPFILE | os.O_RDWR, 0o666, dir_fd=self._dir)
        except (AttributeError, OSError):
            self.partial = self.name + ".partial"
            fd = os.open(self.partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666, dir_fd=self._dir)
        self.file = os.fdopen(fd, "wb")

    def append(self, src):
        """Copies the rest of binary file `src` to the end of the output (in the kernel
        where it can: a trace is often tens of MB)."""
        self.file.flush()
        offset = src.tell()
        try:
            while True:
                n = os.copy_file_range(src.fileno(), self.file.fileno(), 1 << 30, offset)
                if not n:
                    return
                offset += n
        except (AttributeError, OSError):  # not Linux, or not between these file systems
            src.seek(offset)
            shutil.copyfileobj(src, self.file, 1 << 20)

    def commit(self):
        """Gives the complete file its name (replacing an existing file)."""
        self.file.flush()
        try:
            if self.partial is None:
                self.partial = self._named_copy()
            os.replace(self.partial, self.name, src_dir_fd=self._dir, dst_dir_fd=self._dir)
            self.partial = None
        except OSError as e:  # e.g. the folder was removed meanwhile: name the output
            raise OSError(e.errno, e.strerror, self.path) from None
        finally:
            self.discard()

    def _named_copy(self):
        temp = ".%s.%s.tmp" % (self.name, secrets.token_hex(4))
        try:
            os.link("/proc/self/fd/%d" % self.file.fileno(), temp, dst_dir_fd=self._dir)
        except OSError:  # no /proc: copy the bytes instead
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=self._dir)
            with os.fdopen(fd, "wb") as dst, os.fdopen(os.dup(self.file.fileno()), "rb") as src:
                src.seek(0)
                shutil.copyfileobj(src, dst, 1 << 20)
        return temp

    def discard(self):
        """Closes without a name; removes the partial file if there is one."""
        if not self.file.closed:
            self.file.close()
        if self.partial is not None:
            try:
                os.unlink(self.partial, dir_fd=self._dir)
            except OSError:
                pass
            self.partial = None
        if self._dir is not None:
            os.close(self._dir)
            self._dir = None
