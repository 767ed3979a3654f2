//! The HTTP layer of `iri serve`: hyper's HTTP/1.1 server with the limits that keep one
//! client from taking the page away from another, or the process down.
//!
//! Answers that need no work (the page's files, refusals, the rule names) are given
//! on the connections' own thread. The page's work (trees, traces, rule pages) is
//! synchronous and keeps caches that are
//! not shared between threads, so it runs on worker threads of its own, each with its
//! own state; the connections live on one thread of a tokio runtime and never wait on
//! that work.
//!
//! **Lanes.** The page's handler estimates what each request costs before it is
//! queued ([`Triage::Work`]); requests up to a cost it chooses go to the
//! [`Lane::Cheap`] lane, the rest (a trace or a comparison of parses of a long input)
//! to the [`Lane::Heavy`] lane. Each lane has its own bounded queue and its own
//! workers, so a flood of heavy requests fills the heavy lane only: it is answered
//! `503` there, and a tree waits behind other trees, never behind a comparison.
//!
//! **Clients.** Every client is on the loopback address, so the address says nothing
//! of who sent a request; the connection is the one client the server can tell
//! apart. HTTP/1.1 answers a connection's requests in order, so a connection has at
//! most one request in a queue, and a queue served first in, first out is served in
//! turn across connections: a client that opens many connections gets as many turns,
//! which is why heavy work has a lane of its own rather than a fair share of one.
//!
//! **Connection slots.** When every slot is taken, a new connection takes the slot of
//! the connection that has been idle longest (no request being worked on; the idle
//! one is closed), so sockets that are opened and left idle, however many and however
//! often reopened, never lock an ordinary request out. Only when every connection is
//! waiting on an answer is a new one closed. The number of slots is sized to the
//! descriptors the process may open ([`open_files`]): the soft limit is raised to
//! what they need, up to the hard limit, and [`RESERVED_DESCRIPTORS`] are left for
//! everything else.
//!
//! Every limit is a constant here, and each has a test in `cli/tests/it/server.rs` and a
//! row in SECURITY.md:
//!
//! | limit | value | what a hostile client gets |
//! |---|---|---|
//! | request head (request line and headers) | [`MAX_HEAD_BYTES`] | `431`, then the connection is closed |
//! | time to send the whole head | [`HEAD_TIMEOUT`] | the connection is closed |
//! | a request body | none allowed (the page only reads) | `413` at once, the body never read, the connection closed |
//! | a connection with no byte read or written | [`IDLE_TIMEOUT`] | closed (a withheld body, an unread answer, an idle keep-alive) |
//! | a connection's whole life | [`MAX_CONNECTION_LIFE`] | closed (an answer read a byte at a time) |
//! | connections open at once | [`MAX_CONNECTIONS`], fewer if the descriptors allow fewer | the longest idle connection is closed for a new one; a new one is closed if none is idle |
//! | requests waiting for a worker | [`MAX_QUEUED_CHEAP`], [`MAX_QUEUED_HEAVY`] by lane | `503` |
//! | bytes of large answers not yet written | [`MAX_UNSENT_BYTES`] | `503` for another large answer; small ones are still served |
//! | HTTP versions | HTTP/1.0 and 1.1 | `505` for any other, then closed |

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper::header::{
    HeaderName, HeaderValue, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST, ORIGIN,
    TRANSFER_ENCODING,
};
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{oneshot, Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// The request line and headers together. The page's longest request is a tree or
/// trace of 4,096 characters, each at most 12 bytes form-encoded (four `%XX`): 48 KiB.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;
/// From a connection's first byte (or the end of its previous answer) to the end of
/// the next request head.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// A connection on which no byte moves either way for this long is closed: a client
/// that withholds what it announced, never reads its answer, or keeps a connection
/// open doing nothing.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(10);
/// No connection lives longer, however slowly it keeps moving.
pub const MAX_CONNECTION_LIFE: Duration = Duration::from_secs(120);
/// Connections open at once, at most; each costs a task, a read buffer (a few KiB
/// idle) and a file descriptor, so fewer where the descriptors allow fewer
/// ([`connection_slots`]).
pub const MAX_CONNECTIONS: usize = 4096;
/// Descriptors kept for everything but connections: the standard streams, the
/// listener, the runtime's own, and a browser started by `--open`.
pub const RESERVED_DESCRIPTORS: usize = 64;
/// Requests of the cheap lane accepted but not yet taken by a worker. Each is
/// cheap by the handler's estimate, so a request that is queued waits at most this
/// many cheap others.
pub const MAX_QUEUED_CHEAP: usize = 64;
/// Requests of the heavy lane accepted but not yet taken by a worker. Short, so that
/// a flood of the heaviest requests is refused rather than queued: a heavy request
/// that is queued waits at most this many others.
pub const MAX_QUEUED_HEAVY: usize = 8;
/// Answers larger than [`SMALL_ANSWER`] computed but not yet written to their
/// clients, in bytes: the largest answer (the trace of 4,096 `/`) is about 3 MB, so
/// this holds about twenty of the largest at once.
pub const MAX_UNSENT_BYTES: usize = 64 * 1024 * 1024;
/// Answers up to this size never wait for [`MAX_UNSENT_BYTES`]: at most one is held
/// per connection, so [`MAX_CONNECTIONS`] bounds them (256 MiB at worst).
pub const SMALL_ANSWER: usize = 64 * 1024;

/// What the page's handler sees of a request.
#[derive(Debug)]
pub struct Request {
    pub method: String,
    /// The `Host` header, if there is one and it is visible ASCII.
    pub host: Option<String>,
    /// The `Origin` header (RFC 6454 §7), if there is one and it is visible ASCII:
    /// the page whose script sent the request.
    pub origin: Option<String>,
    /// The `Sec-Fetch-Site` header (Fetch Metadata Request Headers §2.4), if any:
    /// how the browser relates the sending page's site to this one.
    pub fetch_site: Option<String>,
    /// The path and query, as sent.
    pub target: String,
}

/// Where a request's work is done: its estimated cost decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Requests whose work is small by the handler's estimate (the trees, the rule
    /// pages, traces and comparisons of short inputs).
    Cheap,
    /// The rest: they never hold up the cheap lane.
    Heavy,
}

/// The handler's first look at a request, on the connections' thread.
#[derive(Debug)]
pub enum Triage {
    /// Answered at once (the page's files, refusals, the rule names).
    Answer(Response),
    /// Work for a worker of this lane.
    Work(Lane),
}

/// What the page's handler answers.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    /// Headers besides `Content-Type` and `Content-Length`.
    pub headers: &'static [(&'static str, &'static str)],
    pub body: String,
}

/// A request waiting for a worker, and where its answer goes.
pub struct Job {
    pub request: Request,
    reply: oneshot::Sender<Response>,
}

impl Job {
    /// Sends the answer back to the connection (which may have gone away meanwhile).
    pub fn answer(self, response: Response) {
        let _ = self.reply.send(response);
    }
}

/// The queue of requests, as a worker thread sees it.
#[derive(Clone)]
pub struct Jobs(Arc<Mutex<mpsc::Receiver<Job>>>);

impl Jobs {
    /// The next request; `None` once the server has stopped.
    pub fn next(&self) -> Option<Job> {
        // A worker that panicked while holding the lock poisoned nothing of ours: the
        // receiver has no invariant a panic could break.
        let receiver = self.0.lock().unwrap_or_else(|e| e.into_inner());
        receiver.recv().ok()
    }
}

/// The descriptors this process may open: its soft limit of open files, first raised
/// towards what [`MAX_CONNECTIONS`] need (never past the hard limit). `None` where
/// the limit cannot be read.
#[cfg(unix)]
pub fn open_files() -> Option<usize> {
    let want = libc::rlim_t::try_from(MAX_CONNECTIONS + RESERVED_DESCRIPTORS).ok()?;
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the limit into the struct it is given, which lives
    // for the call.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return None;
    }
    if limit.rlim_cur != libc::RLIM_INFINITY && limit.rlim_cur < want {
        let raised = libc::rlimit {
            rlim_cur: if limit.rlim_max == libc::RLIM_INFINITY {
                want
            } else {
                want.min(limit.rlim_max)
            },
            rlim_max: limit.rlim_max,
        };
        // SAFETY: setrlimit reads the struct it is given; lowering nothing, it can
        // only fail (and then the old limit stands).
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit = raised;
        }
    }
    if limit.rlim_cur == libc::RLIM_INFINITY {
        return Some(usize::MAX);
    }
    Some(usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX))
}

/// Elsewhere the limit is not read, and [`MAX_CONNECTIONS`] stands.
#[cfg(not(unix))]
pub fn open_files() -> Option<usize> {
    None
}

/// How many connections may be open at once with `open_files` descriptors: all of
/// them but [`RESERVED_DESCRIPTORS`], at most [`MAX_CONNECTIONS`], at least one.
pub fn connection_slots(open_files: Option<usize>) -> usize {
    open_files.map_or(MAX_CONNECTIONS, |n| {
        n.saturating_sub(RESERVED_DESCRIPTORS)
            .clamp(1, MAX_CONNECTIONS)
    })
}

/// A listening server and the queues its workers read.
pub struct Server {
    listener: std::net::TcpListener,
    cheap: mpsc::SyncSender<Job>,
    heavy: mpsc::SyncSender<Job>,
    cheap_jobs: Jobs,
    heavy_jobs: Jobs,
    slots: usize,
}

impl Server {
    /// Listens on 127.0.0.1:`port` (0: a free port), with `slots` connections at
    /// most ([`connection_slots`]).
    pub fn bind(port: u16, slots: usize) -> io::Result<Server> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", port))?;
        listener.set_nonblocking(true)?;
        let (cheap, cheap_jobs) = mpsc::sync_channel(MAX_QUEUED_CHEAP);
        let (heavy, heavy_jobs) = mpsc::sync_channel(MAX_QUEUED_HEAVY);
        Ok(Server {
            listener,
            cheap,
            heavy,
            cheap_jobs: Jobs(Arc::new(Mutex::new(cheap_jobs))),
            heavy_jobs: Jobs(Arc::new(Mutex::new(heavy_jobs))),
            slots: slots.max(1),
        })
    }

    pub fn port(&self) -> io::Result<u16> {
        Ok(self.listener.local_addr()?.port())
    }

    /// A lane's queue, for a worker thread.
    pub fn jobs(&self, lane: Lane) -> Jobs {
        match lane {
            Lane::Cheap => self.cheap_jobs.clone(),
            Lane::Heavy => self.heavy_jobs.clone(),
        }
    }

    /// Serves until the process ends (or the listener fails to start). `triage`
    /// answers what needs no work on the connections' thread and sends the rest to
    /// the workers of the lane it names.
    pub fn run(
        self,
        triage: impl Fn(&Request) -> Triage + Send + Sync + 'static,
    ) -> io::Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        runtime.block_on(self.accept(Box::new(triage)))
    }

    async fn accept(self, triage: TriageFn) -> io::Result<()> {
        let listener = tokio::net::TcpListener::from_std(self.listener)?;
        let shared = Arc::new(Shared {
            triage,
            cheap: self.cheap,
            heavy: self.heavy,
            unsent: Arc::new(Semaphore::new(MAX_UNSENT_BYTES / 1024)),
        });
        let slots = Arc::new(Slots {
            limit: self.slots,
            open: Mutex::new(HashMap::new()),
        });
        let mut next_id = 0u64;
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                // Out of file descriptors or a connection reset before it was taken:
                // neither is a reason to stop serving. Wait a moment so that a full
                // descriptor table is not polled in a busy loop.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            next_id += 1;
            let Some(slot) = slots.take(next_id) else {
                drop(stream);
                continue;
            };
            tokio::spawn(connection(stream, slot, shared.clone()));
            // A connection made to give up its slot closes when its task next runs:
            // let it, before the next accept takes another descriptor.
            tokio::task::yield_now().await;
        }
    }
}

type TriageFn = Box<dyn Fn(&Request) -> Triage + Send + Sync>;

/// What every connection shares: the lanes' queues to the workers, and the budget of
/// bytes of answers not yet written.
struct Shared {
    triage: TriageFn,
    cheap: mpsc::SyncSender<Job>,
    heavy: mpsc::SyncSender<Job>,
    unsent: Arc<Semaphore>,
}

/// What the accept loop knows of an open connection.
struct Slot {
    born: Instant,
    /// Milliseconds from `born` to the last byte moved ([`Watched`]).
    moved: Arc<AtomicU64>,
    /// Requests of the connection being answered (at most one: HTTP/1.1 answers
    /// in order).
    busy: Arc<AtomicUsize>,
    /// Told when the connection must give up its slot.
    evict: Arc<Notify>,
}

impl Slot {
    fn last_moved(&self) -> Instant {
        self.born + Duration::from_millis(self.moved.load(Ordering::Relaxed))
    }
}

/// The open connections, at most `limit`.
struct Slots {
    limit: usize,
    open: Mutex<HashMap<u64, Slot>>,
}

impl Slots {
    /// A slot for connection `id`: a free one, or the one of the connection idle
    /// longest, which is told to close; `None` when every connection is being
    /// answered.
    fn take(self: &Arc<Self>, id: u64) -> Option<Held> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.len() >= self.limit {
            let (&victim, _) = open
                .iter()
                .filter(|(_, s)| s.busy.load(Ordering::Relaxed) == 0)
                .min_by_key(|(_, s)| s.last_moved())?;
            if let Some(s) = open.remove(&victim) {
                s.evict.notify_one();
            }
        }
        let slot = Slot {
            born: Instant::now(),
            moved: Arc::new(AtomicU64::new(0)),
            busy: Arc::new(AtomicUsize::new(0)),
            evict: Arc::new(Notify::new()),
        };
        let held = Held {
            id,
            slots: self.clone(),
            born: slot.born,
            moved: slot.moved.clone(),
            busy: slot.busy.clone(),
            evict: slot.evict.clone(),
        };
        open.insert(id, slot);
        Some(held)
    }
}

/// A connection's hold on its slot, given back when the connection ends.
struct Held {
    id: u64,
    slots: Arc<Slots>,
    born: Instant,
    moved: Arc<AtomicU64>,
    busy: Arc<AtomicUsize>,
    evict: Arc<Notify>,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.slots.open.lock().unwrap_or_else(|e| e.into_inner());
        open.remove(&self.id);
    }
}

/// Counts a request of its connection as being answered while it lives.
struct Busy(Arc<AtomicUsize>);

impl Busy {
    fn new(busy: &Arc<AtomicUsize>) -> Busy {
        busy.fetch_add(1, Ordering::Relaxed);
        Busy(busy.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One connection, from accept to close: hyper reads requests and writes answers; the
/// watchdog and the lifetime end it when it stalls or lives too long, and the accept
/// loop when it needs the slot of an idle one.
async fn connection(stream: tokio::net::TcpStream, slot: Held, shared: Arc<Shared>) {
    let _ = stream.set_nodelay(true);
    let born = slot.born;
    let moved = slot.moved.clone();
    let io = TokioIo::new(Watched {
        io: stream,
        born,
        moved: moved.clone(),
    });
    let busy = slot.busy.clone();
    let service = service_fn(move |request| {
        let shared = shared.clone();
        let busy = Busy::new(&busy);
        async move {
            let answer = respond(request, &shared).await;
            drop(busy);
            Ok::<_, Infallible>(answer)
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_buf_size(MAX_HEAD_BYTES);
    let served = http.serve_connection(io, service);
    let evict = slot.evict.clone();
    tokio::select! {
        _ = served => {}
        _ = stalled(born, moved) => {}
        _ = tokio::time::sleep(MAX_CONNECTION_LIFE) => {}
        _ = evict.notified() => {}
    }
    drop(slot);
}

/// Ends when no byte has moved on the connection for [`IDLE_TIMEOUT`].
async fn stalled(born: Instant, moved: Arc<AtomicU64>) {
    loop {
        let last = born + Duration::from_millis(moved.load(Ordering::Relaxed));
        let deadline = last + IDLE_TIMEOUT;
        if Instant::now() >= deadline {
            return;
        }
        tokio::time::sleep_until(deadline).await;
    }
}

/// A connection's stream that notes when a byte last moved (milliseconds since the
/// connection was accepted), for [`stalled`].
struct Watched {
    io: tokio::net::TcpStream,
    born: Instant,
    moved: Arc<AtomicU64>,
}

impl Watched {
    fn note(&self) {
        let ms = u64::try_from(self.born.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.moved.store(ms, Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.io).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.note();
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write(cx, data);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.note();
        }
        r
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write_vectored(cx, data);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.note();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// An answer's body that holds its share of [`MAX_UNSENT_BYTES`] until it has been
/// written or its connection is gone.
struct Budgeted {
    body: Full<Bytes>,
    _share: Option<OwnedSemaphorePermit>,
}

impl Body for Budgeted {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

type Answer = hyper::Response<Budgeted>;

/// Fetch Metadata's header, which `hyper::header` does not name.
const SEC_FETCH_SITE: HeaderName = HeaderName::from_static("sec-fetch-site");

/// A plain-text answer made by this layer (not the page's), optionally closing the
/// connection after it.
fn plain(status: u16, text: &str, close: bool) -> Answer {
    let mut a = hyper::Response::new(Budgeted {
        body: Full::new(Bytes::copy_from_slice(text.as_bytes())),
        _share: None,
    });
    *a.status_mut() =
        hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    a.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if close {
        a.headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
    }
    a
}

/// Whether the request announces a body (which this server never reads).
fn has_body(request: &hyper::Request<Incoming>) -> bool {
    let h = request.headers();
    h.contains_key(TRANSFER_ENCODING)
        || h.get_all(CONTENT_LENGTH)
            .iter()
            .any(|v| v.to_str().map_or(true, |s| s.trim() != "0"))
}

async fn respond(request: hyper::Request<Incoming>, shared: &Shared) -> Answer {
    if has_body(&request) {
        // Not read, not drained: the connection is closed after this answer, so the
        // announced length costs nothing however large it is.
        return plain(413, "iri serve takes no request bodies\n", true);
    }
    let header = |name| {
        request
            .headers()
            .get(name)
            .and_then(|h: &HeaderValue| h.to_str().ok())
            .map(str::to_string)
    };
    let asked = Request {
        method: request.method().as_str().to_string(),
        host: header(HOST),
        origin: header(ORIGIN),
        fetch_site: header(SEC_FETCH_SITE),
        target: request.uri().path_and_query().map_or_else(
            || request.uri().path().to_string(),
            |p| p.as_str().to_string(),
        ),
    };
    let page = match (shared.triage)(&asked) {
        Triage::Answer(page) => page,
        Triage::Work(lane) => {
            let (reply, answer) = oneshot::channel();
            let queue = match lane {
                Lane::Cheap => &shared.cheap,
                Lane::Heavy => &shared.heavy,
            };
            match queue.try_send(Job {
                request: asked,
                reply,
            }) {
                Ok(()) => {}
                Err(mpsc::TrySendError::Full(_)) => {
                    return plain(503, "iri serve is busy; try again\n", false);
                }
                Err(mpsc::TrySendError::Disconnected(_)) => {
                    return plain(500, "iri serve has no workers left\n", true);
                }
            }
            let Ok(page) = answer.await else {
                return plain(500, "iri serve failed to answer this request\n", false);
            };
            page
        }
    };
    // A large answer holds its share of the budget, in whole KiB, until it is
    // written; small ones (the page, rules, most trees) are bounded by the number of
    // connections already, and must not be refused because others hoard large ones.
    let share = if page.body.len() > SMALL_ANSWER {
        let kib = u32::try_from(page.body.len().div_ceil(1024)).unwrap_or(u32::MAX);
        match shared.unsent.clone().try_acquire_many_owned(kib) {
            Ok(share) => Some(share),
            Err(_) => {
                return plain(
                    503,
                    "iri serve is busy writing other answers; try again\n",
                    false,
                )
            }
        }
    } else {
        None
    };
    let mut a = hyper::Response::new(Budgeted {
        body: Full::new(Bytes::from(page.body)),
        _share: share,
    });
    *a.status_mut() = hyper::StatusCode::from_u16(page.status)
        .unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = a.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(page.content_type));
    for (name, value) in page.headers {
        headers.insert(*name, HeaderValue::from_static(value));
    }
    a
}
