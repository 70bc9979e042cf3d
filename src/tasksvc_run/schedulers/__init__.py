"""The bot process's schedulers: a small runtime and its jobs (SPEC section 10)."""

from tasksvc_run.schedulers.jobs import JobContext, build_jobs, build_runtime
from tasksvc_run.schedulers.leases import DatabaseLeases, JobLeases, LocalLeases, process_owner
from tasksvc_run.schedulers.runtime import Job, SchedulerRuntime, every, every_minute

__all__ = ["DatabaseLeases", "Job", "JobContext", "JobLeases", "LocalLeases", "SchedulerRuntime", "build_jobs",
           "build_runtime", "every", "every_minute", "process_owner"]
