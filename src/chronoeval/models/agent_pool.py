"""Reference agents in worker processes, one per CPU core.

The reference agents (clock reading, OCR of a calendar title, …) are CPU-bound Python, NumPy and
OpenCV. In threads they share one interpreter lock, so a 2-core machine ran them on about one core.
Here each request goes to one of ``workers`` forked processes; the agent there gets exactly what it
got in a thread: the request's messages and a reader of its images (the worker reads the image file
itself, under the same dataset-confinement rule). The answer text is the same; only where it is
computed changes.

Routing: a request goes to the worker that already answered a request with the same first image
(an agent may memoise per image: the calendar reader OCRs a page once for its six questions), else
to the worker with the fewest requests in flight. Routing changes no answer: every agent is a pure
function of its input; it only keeps such per-process caches warm.

One pool per process, started by :func:`start` (``chronoeval run`` calls it first thing) and shut
down at exit; without it (the Python API, ``chronoeval serve``) agents stay in threads as before.
``CHRONOEVAL_AGENT_WORKERS`` sets the number of workers; ``0`` or ``1`` (or a single usable core)
keeps the agents in threads. Workers are forked (never spawned): they inherit the imported modules
and start in milliseconds; :func:`start` imports the agents' modules there while the parent
prepares datasets.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import sys
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from chronoeval.engine.request import Request

ENV = "CHRONOEVAL_AGENT_WORKERS"

_agents: dict[str, Any] = {}  # per worker process: task name -> agent
_IN_WORKER = False  # True in a worker process of this module's pool


def native_threads() -> int | None:
    """The threads a native engine created now should use: 1 in a worker process (a worker
    stands for one core; see :func:`one_thread_per_worker`), None elsewhere (the library's own
    default). Engines an agent creates itself (the calendar reader's ONNX Runtime sessions) ask
    this."""
    return 1 if _IN_WORKER else None


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def default_workers() -> int:
    """``$CHRONOEVAL_AGENT_WORKERS``, else one worker per usable core (at most 8)."""
    raw = os.environ.get(ENV, "").strip()
    if raw:
        try:
            return max(0, int(raw))
        except ValueError:
            return 0
    return min(8, usable_cores())


def _init_worker(parent: int) -> None:
    """In a new worker: end when the process that started it is gone, even when that one was
    killed outright (SIGKILL leaves it no chance to shut the pool down): a watchdog thread sees
    the worker re-parented and exits."""

    def watch() -> None:
        import time

        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="chronoeval-parent-watch", daemon=True).start()
    one_thread_per_worker()


def one_thread_per_worker() -> None:
    """In a worker: native libraries compute on this worker's one core.

    A worker stands for one core. The BLAS libraries loaded (NumPy's OpenBLAS, and the one
    OpenCV brings) default to a thread per core and spin while they wait for work; in every
    worker of a 2-core machine that doubled the CPU the clock reader costs (51 vs 26 ms of CPU
    per face, measured in one process with and without ``OPENBLAS_NUM_THREADS=1``, see
    docs/benchmarks.md "Session 3: the default job"). ONNX Runtime sessions created in a
    worker ask :func:`native_threads`. The numbers computed are the same (checked by
    benchmarks/bench_default_job.py, which compares every output). Also callable in any process
    that should compute like a worker (a benchmark's ``--one-thread``).

    OpenCV's thread pool is left alone: ``cv2.setNumThreads`` in a worker forked from a process
    whose OpenCV pool had run (a test session) hung for good, and one vs two OpenCV threads made
    no measurable difference to the clock reader (50.5 vs 51.7 ms of CPU per face). OpenBLAS
    shuts its threads down before a fork (its own ``pthread_atfork`` handler), so limiting it in
    the child is safe."""
    global _IN_WORKER
    _IN_WORKER = True
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a declared dependency; without it only slower
        pass
    else:
        threadpool_limits(limits=1)


def _agent(task_name: str) -> Any:
    agent = _agents.get(task_name)
    if agent is None:
        from chronoeval.core.registry import get_task

        agent = get_task(task_name).reference_agent()
        if agent is None:
            raise RuntimeError(f"task {task_name!r} has no reference agent")
        _agents[task_name] = agent
    return agent


class AgentFailed(Exception):
    """An agent's exception, carried back from a worker as its type name and message (any
    exception pickles this way, whatever its constructor)."""

    def __init__(self, type_name: str, message: str) -> None:
        super().__init__(type_name, message)
        self.type_name = type_name
        self.message = message


def _answer(task_name: str, request: Request) -> str:
    """In a worker: the task's reference agent on the request (what a thread used to run)."""
    try:
        return _agent(task_name)(request.messages, request.read_image)
    except Exception as exc:  # noqa: BLE001 - reported by the parent like a thread's exception
        raise AgentFailed(type(exc).__name__, str(exc)) from None


def _warm(task_names: tuple[str, ...]) -> int:
    """In a worker: look the agents up and import the modules their module's ``WARM`` names for
    them (``{agent function name: module names}``), if any."""
    for name in task_names:
        agent = _agent(name)
        module = importlib.import_module(getattr(agent, "__module__", "") or "builtins")
        warm_map = getattr(module, "WARM", {})
        for extra in warm_map.get(getattr(agent, "__name__", ""), ()):
            with contextlib.suppress(ImportError):  # the agent's own first call reports it
                importlib.import_module(extra)
    one_thread_per_worker()  # again for the libraries those imports loaded
    return os.getpid()


def _in_dir(cwd: str, fn: Any, *args: Any) -> Any:
    """In a worker: ``fn(*args)`` from the caller's working directory. A pool outlives one run in
    a process that runs several (the CLI invoked in process, the Python API), and relative paths
    (``runs/...``) must mean what they mean to the caller now, not where the worker was forked."""
    if os.getcwd() != cwd:
        os.chdir(cwd)
    return fn(*args)


def _first_image(request: Request) -> str | None:
    for m in request.messages:
        for p in m.content:
            path = getattr(p, "path", None)
            if isinstance(path, str):
                return path
    return None


class AgentPool:
    """``workers`` single-process executors (forked), with sticky routing by first image."""

    def __init__(self, workers: int) -> None:
        import multiprocessing

        self.workers = workers
        self._ctx = multiprocessing.get_context("fork")
        self._executors: list[ProcessPoolExecutor | None] = [None] * workers
        self._pending = [0] * workers
        self._home: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def _executor(self, i: int) -> ProcessPoolExecutor:
        ex = self._executors[i]
        if ex is None:
            ex = ProcessPoolExecutor(
                max_workers=1,
                mp_context=self._ctx,
                initializer=_init_worker,
                initargs=(os.getpid(),),
            )
            self._executors[i] = ex
        return ex

    def _least_loaded(self) -> int:
        """The worker with the fewest calls in flight (call with the lock held)."""
        return min(range(self.workers), key=lambda k: (self._pending[k], k))

    def _route(self, task_name: str, request: Request) -> int:
        image = _first_image(request)
        with self._lock:
            if image is not None and (task_name, image) in self._home:
                i = self._home[(task_name, image)]
            else:
                i = self._least_loaded()
                if image is not None:
                    self._home[(task_name, image)] = i
            self._pending[i] += 1
        return i

    def _submit(self, i: int, fn: Any, *args: Any) -> Future[Any]:
        """``fn(*args)`` in worker ``i`` (already counted in flight), run in the caller's cwd."""
        try:
            fut = self._executor(i).submit(_in_dir, os.getcwd(), fn, *args)
        except BaseException:
            self._done(i, None)
            raise
        fut.add_done_callback(lambda f, i=i: self._done(i, f))
        return fut

    def submit(self, task_name: str, request: Request) -> Future[str]:
        return self._submit(self._route(task_name, request), _answer, task_name, request)

    def _done(self, i: int, fut: Future[Any] | None) -> None:
        with self._lock:
            self._pending[i] -= 1
            if (
                fut is not None
                and not fut.cancelled()
                and isinstance(fut.exception(), BrokenProcessPool)
            ):
                self._executors[i] = None  # a dead worker: the next request starts a new one

    def call(self, fn: Any, *args: Any) -> Future[Any]:
        """``fn(*args)`` in the worker with the fewest calls in flight (``fn`` and ``args``
        picklable; ``fn`` a module-level function)."""
        with self._lock:
            i = self._least_loaded()
            self._pending[i] += 1
        return self._submit(i, fn, *args)

    async def answer(self, task_name: str, request: Request) -> str:
        return await asyncio.wrap_future(self.submit(task_name, request))

    def warm(self, task_names: tuple[str, ...]) -> list[Future[int]]:
        """Start every worker now and import the agents' modules there (returns at once)."""
        return [self._executor(i).submit(_warm, task_names) for i in range(self.workers)]

    def shutdown(self) -> None:
        for i, ex in enumerate(self._executors):
            if ex is not None:
                ex.shutdown(wait=True, cancel_futures=True)
                self._executors[i] = None


_POOL: AgentPool | None = None
_POOL_PID: int | None = None
_POOL_LOCK = threading.Lock()


def get_pool() -> AgentPool | None:
    """This process's pool once :func:`start` has started it, else None (agents in threads)."""
    with _POOL_LOCK:
        return _POOL if _POOL is not None and os.getpid() == _POOL_PID else None


FORK_UNSAFE_MODULES = ("torch",)
"""Native runtimes whose thread pools do not survive a fork: once one is imported in this process
(a test session, a notebook, a run that loaded a model first), a forked worker can hang. Seen: a
worker forked from a pytest process while a test used torch hung in its first RapidOCR call. Then
the agents stay in threads. (onnxruntime loaded in the parent was measured harmless: the
agent-pool tests fork after the calendar agent ran OCR in a thread.)"""


def _fork_unsafe() -> bool:
    return any(name in sys.modules for name in FORK_UNSAFE_MODULES)


def start(task_names: list[str] | None = None) -> AgentPool | None:
    """Start this process's workers now (``chronoeval run`` does, before it starts threads of
    its own) and import the named tasks' agents there in the background; None when agents stay
    in threads (``$CHRONOEVAL_AGENT_WORKERS`` below 2, or a single usable core).

    The named tasks' suites are imported here first, so that the workers inherit them instead of
    importing them again each. Without a started pool (the Python API, ``chronoeval serve``) reference
    agents run in threads as before."""
    global _POOL, _POOL_PID
    from chronoeval.core.registry import load_suites

    workers = default_workers()
    if workers < 2 or _fork_unsafe():
        return None
    load_suites(task_names or [])
    with _POOL_LOCK:
        if _POOL is None or os.getpid() != _POOL_PID:
            _POOL = AgentPool(workers)
            _POOL_PID = os.getpid()
        pool = _POOL
    pool.warm(tuple(task_names or ()))
    return pool


def shutdown() -> None:
    """Stop this process's workers (a later request starts new ones)."""
    global _POOL
    with _POOL_LOCK:
        pool, _POOL = _POOL, None
    if pool is not None and os.getpid() == _POOL_PID:
        pool.shutdown()
