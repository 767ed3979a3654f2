//! Standard input and output: the process's, or bytes in memory for the current
//! thread. [`crate::run_in_memory`] (the fuzz target `cli_lines` and in-process
//! tests) runs the same commands on the streams of [`in_memory`].

use super::ranges::Source;
use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::rc::Rc;

/// Standard input and output held in memory, for the current thread.
struct Memory {
    /// What standard input holds; taken by the first command that reads it.
    input: Option<Vec<u8>>,
    /// What was written to standard output.
    output: Rc<RefCell<Vec<u8>>>,
}

thread_local! {
    static MEMORY: RefCell<Option<Memory>> = const { RefCell::new(None) };
}

/// A writer into the shared output buffer of [`Memory`].
struct SharedBuffer(Rc<RefCell<Vec<u8>>>);

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs `f` with standard input reading `stdin` and standard output written to
/// memory; returns `f`'s result and what was written.
pub fn in_memory<T>(stdin: &[u8], f: impl FnOnce() -> T) -> (T, Vec<u8>) {
    let output = Rc::new(RefCell::new(Vec::new()));
    MEMORY.with(|m| {
        *m.borrow_mut() = Some(Memory {
            input: Some(stdin.to_vec()),
            output: Rc::clone(&output),
        })
    });
    let result = f();
    MEMORY.with(|m| m.borrow_mut().take());
    let written = std::mem::take(&mut *output.borrow_mut());
    (result, written)
}

/// Standard input: the process's, or the bytes of [`in_memory`].
pub(super) fn stdin_reader() -> Box<dyn Read + Send> {
    let memory = MEMORY.with(|m| {
        m.borrow_mut()
            .as_mut()
            .map(|m| m.input.take().unwrap_or_default())
    });
    match memory {
        Some(bytes) => Box::new(io::Cursor::new(bytes)),
        // Unlocked, so that another thread may read it; it is read in big blocks.
        None => Box::new(io::stdin()),
    }
}

/// Standard output: the process's, or the buffer of [`in_memory`].
pub(super) fn stdout_writer() -> Box<dyn Write> {
    let memory = MEMORY.with(|m| {
        m.borrow()
            .as_ref()
            .map(|m| SharedBuffer(Rc::clone(&m.output)))
    });
    match memory {
        Some(buffer) => Box::new(buffer),
        None => Box::new(io::stdout().lock()),
    }
}

/// Standard input where it can be read at any offset (a regular file, or the bytes
/// of [`in_memory`], which it takes), and the offset it is at; `None` for a pipe or
/// a terminal.
pub(super) fn stdin_at() -> Option<(Source, u64)> {
    let memory = MEMORY.with(|m| {
        m.borrow_mut()
            .as_mut()
            .map(|m| m.input.take().unwrap_or_default())
    });
    if let Some(bytes) = memory {
        return Some((Source::Memory(bytes), 0));
    }
    #[cfg(unix)]
    {
        use std::io::Seek;
        use std::os::fd::AsFd;
        // A descriptor of its own for the same open file: reads at an offset leave
        // the file's position alone, which is set once the input is read through.
        let mut file = io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .ok()
            .map(std::fs::File::from)?;
        if !file.metadata().ok()?.is_file() {
            return None;
        }
        let at = file.stream_position().ok()?;
        Some((Source::File(file), at))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Whether standard input is a regular file, or bytes in memory (which a read never
/// waits on).
pub(super) fn stdin_is_a_file() -> bool {
    if MEMORY.with(|m| m.borrow().is_some()) {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .ok()
            .map(std::fs::File::from)
            .and_then(|f| f.metadata().ok())
            .is_some_and(|m| m.is_file())
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Whether standard output is a terminal (never for output in memory).
pub(super) fn stdout_is_a_terminal() -> bool {
    use std::io::IsTerminal;
    MEMORY.with(|m| m.borrow().is_none()) && io::stdout().is_terminal()
}

/// How many bytes [`in_memory`] has been given so far.
#[cfg(test)]
pub(super) fn written() -> usize {
    MEMORY.with(|m| m.borrow().as_ref().map_or(0, |m| m.output.borrow().len()))
}
