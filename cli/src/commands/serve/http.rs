//! The HTTP layer of `iri serve`: hyper's HTTP/1.1 server with the limits that keep one
//! client from taking the page away from another, or the process down.
//!
//! Answers that need no work (the page's files, refusals, the rule names) are given
//! on the connections' own thread. The page's work (trees, traces, rule pages) is
//! synchronous and keeps caches that are
//! not shared between threads, so it runs on worker threads of its own, each with its
//! own state, fed by a bounded queue; the connections live on one thread of a tokio
//! runtime and never wait on that work. Every limit is a constant here, and each has a
//! test in `cli/tests/server.rs` and a row in SECURITY.md:
//!
//! | limit | value | what a hostile client gets |
//! |---|---|---|
//! | request head (request line and headers) | [`MAX_HEAD_BYTES`] | `431`, then the connection is closed |
//! | time to send the whole head | [`HEAD_TIMEOUT`] | the connection is closed |
//! | a request body | none allowed (the page only reads) | `413` at once, the body never read, the connection closed |
//! | a connection with no byte read or written | [`IDLE_TIMEOUT`] | closed (a withheld body, an unread answer, an idle keep-alive) |
//! | a connection's whole life | [`MAX_CONNECTION_LIFE`] | closed (an answer read a byte at a time) |
//! | connections open at once | [`MAX_CONNECTIONS`] | further ones are closed as soon as accepted |
//! | requests waiting for a worker | [`MAX_QUEUED`] | `503` |
//! | bytes of large answers not yet written | [`MAX_UNSENT_BYTES`] | `503` for another large answer; small ones are still served |
//! | HTTP versions | HTTP/1.0 and 1.1 | `505` for any other, then closed |

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper::header::{
    HeaderValue, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST, TRANSFER_ENCODING,
};
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};
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
/// Connections open at once; each costs a task and a read buffer (a few KiB idle).
pub const MAX_CONNECTIONS: usize = 4096;
/// Requests accepted but not yet taken by a worker. Short, so that a flood of the
/// heaviest requests (a trace of 4,096 characters takes about 25 ms) is refused
/// rather than queued ahead of everyone else: a request that is queued waits at most
/// this many others.
pub const MAX_QUEUED: usize = 8;
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
    /// The path and query, as sent.
    pub target: String,
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

/// A listening server and the queue its workers read.
pub struct Server {
    listener: std::net::TcpListener,
    queue: mpsc::SyncSender<Job>,
    jobs: Jobs,
}

impl Server {
    /// Listens on 127.0.0.1:`port` (0: a free port).
    pub fn bind(port: u16) -> io::Result<Server> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", port))?;
        listener.set_nonblocking(true)?;
        let (queue, jobs) = mpsc::sync_channel(MAX_QUEUED);
        Ok(Server {
            listener,
            queue,
            jobs: Jobs(Arc::new(Mutex::new(jobs))),
        })
    }

    pub fn port(&self) -> io::Result<u16> {
        Ok(self.listener.local_addr()?.port())
    }

    /// The queue, for a worker thread.
    pub fn jobs(&self) -> Jobs {
        self.jobs.clone()
    }

    /// Serves until the process ends (or the listener fails to start). `quick` answers
    /// what needs no work on the connections' thread; the rest goes to the workers.
    pub fn run(
        self,
        quick: impl Fn(&Request) -> Option<Response> + Send + Sync + 'static,
    ) -> io::Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        runtime.block_on(self.accept(Box::new(quick)))
    }

    async fn accept(self, quick: Quick) -> io::Result<()> {
        let listener = tokio::net::TcpListener::from_std(self.listener)?;
        let shared = Arc::new(Shared {
            quick,
            queue: self.queue,
            unsent: Arc::new(Semaphore::new(MAX_UNSENT_BYTES / 1024)),
        });
        let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
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
            let Ok(permit) = connections.clone().try_acquire_owned() else {
                drop(stream);
                continue;
            };
            tokio::spawn(connection(stream, permit, shared.clone()));
        }
    }
}

type Quick = Box<dyn Fn(&Request) -> Option<Response> + Send + Sync>;

/// What every connection shares: the queue to the workers, and the budget of bytes
/// of answers not yet written.
struct Shared {
    quick: Quick,
    queue: mpsc::SyncSender<Job>,
    unsent: Arc<Semaphore>,
}

/// One connection, from accept to close: hyper reads requests and writes answers; the
/// watchdog and the lifetime end it when it stalls or lives too long.
async fn connection(
    stream: tokio::net::TcpStream,
    _permit: OwnedSemaphorePermit,
    shared: Arc<Shared>,
) {
    let _ = stream.set_nodelay(true);
    let born = Instant::now();
    let moved = Arc::new(AtomicU64::new(0));
    let io = TokioIo::new(Watched {
        io: stream,
        born,
        moved: moved.clone(),
    });
    let service = service_fn(move |request| {
        let shared = shared.clone();
        async move { Ok::<_, Infallible>(respond(request, &shared).await) }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_buf_size(MAX_HEAD_BYTES);
    let served = http.serve_connection(io, service);
    tokio::select! {
        _ = served => {}
        _ = stalled(born, moved) => {}
        _ = tokio::time::sleep(MAX_CONNECTION_LIFE) => {}
    }
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
    let asked = Request {
        method: request.method().as_str().to_string(),
        host: request
            .headers()
            .get(HOST)
            .and_then(|h| h.to_str().ok())
            .map(str::to_string),
        target: request.uri().path_and_query().map_or_else(
            || request.uri().path().to_string(),
            |p| p.as_str().to_string(),
        ),
    };
    let page = match (shared.quick)(&asked) {
        Some(page) => page,
        None => {
            let (reply, answer) = oneshot::channel();
            match shared.queue.try_send(Job {
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
