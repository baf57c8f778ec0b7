/**
 * Whether this process is on its way out. Once stopping, readiness answers 503 and every
 * response closes its connection, so a proxy or load balancer moves traffic to the other
 * processes while this one still serves what reaches it (`SHUTDOWN_DRAIN_MS`).
 */
export class ProcessLifecycle {
  stopping = false;
}
