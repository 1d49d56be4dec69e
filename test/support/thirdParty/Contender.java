// One contender of CuratorDriver (see CuratorDriver.java for the protocol): a recipe instance on a session of its
// own, reporting `waiting` (its node exists, not held yet), `acquired`, `timeout`, `cancelled` (released while
// waiting), `released` and `failed`.
import java.nio.charset.StandardCharsets;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.*;
import org.apache.curator.framework.recipes.locks.*;
import org.apache.zookeeper.*;
import org.apache.zookeeper.recipes.leader.LeaderElectionSupport;
import org.apache.zookeeper.recipes.lock.LockListener;
import org.apache.zookeeper.recipes.lock.WriteLock;

class Contender {
  final String id, kind, path;
  final int leases;
  final byte[] data;
  private CuratorFramework curator;
  private ZooKeeper zk;
  private final AtomicBoolean acquired = new AtomicBoolean(), waitingSent = new AtomicBoolean();
  private volatile boolean finished;
  private volatile Future<?> task;
  private InterProcessLock lock;
  private InterProcessSemaphoreV2 semaphore;
  private Lease lease;
  private LeaderLatch latch;
  private LeaderSelector selector;
  /** Counted down by release(): ends a LeaderSelector's leadership, or lets the acquiring thread release. */
  private final CountDownLatch leadershipEnds = new CountDownLatch(1);
  private WriteLock writeLock;
  private LeaderElectionSupport election;

  Contender(String id, String kind, String path, int leases) {
    this.id = id; this.kind = kind; this.path = path; this.leases = leases;
    this.data = id.getBytes(StandardCharsets.UTF_8);
  }

  ZooKeeper zooKeeper() throws Exception { return zk != null ? zk : curator.getZookeeperClient().getZooKeeper(); }

  void start(long timeoutMs) throws Exception {
    switch (kind) {
      case "mutex": case "read": case "write": case "semaphore": startCurator(timeoutMs); break;
      case "leader-latch": startLatch(); break;
      case "leader-selector": startSelector(); break;
      case "zk-write-lock": startWriteLock(timeoutMs); break;
      case "zk-leader-election": startElection(); break;
      default:
        CuratorDriver.contenders.remove(id);
        CuratorDriver.emit("error", id, "message", "unsupported kind " + kind);
    }
  }

  // ---------- Curator locks (blocking acquire in a thread) ----------

  private void startCurator(long timeoutMs) throws Exception {
    curator = CuratorDriver.newCurator();
    switch (kind) {
      case "mutex": lock = new InterProcessMutex(curator, path) { @Override protected byte[] getLockNodeBytes() { return data; } }; break;
      case "read": lock = new InterProcessReadWriteLock(curator, path, data).readLock(); break;
      case "write": lock = new InterProcessReadWriteLock(curator, path, data).writeLock(); break;
      default:
        semaphore = new InterProcessSemaphoreV2(curator, path, leases);
        semaphore.setNodeData(data);
    }
    String nodeParent = semaphore != null ? path + "/leases" : path;
    task = CuratorDriver.pool.submit(() -> {
      try {
        boolean got;
        if (semaphore != null) {
          lease = timeoutMs >= 0 ? semaphore.acquire(timeoutMs, TimeUnit.MILLISECONDS) : semaphore.acquire();
          got = lease != null;
        } else if (timeoutMs >= 0) got = lock.acquire(timeoutMs, TimeUnit.MILLISECONDS);
        else { lock.acquire(); got = true; }
        if (!got) { finish("timeout"); return null; }
        onAcquired(lease != null ? lease.getNodeName() : CuratorDriver.findByData(zooKeeper(), nodeParent, data));
      } catch (InterruptedException e) {
        finish("cancelled");
      } catch (Exception e) {
        finish("failed", "message", String.valueOf(e));
        return null;
      }
      // Curator's mutexes belong to the thread that acquired them: release here, when release() says so.
      boolean cancelled = false;
      try { leadershipEnds.await(); } catch (InterruptedException e) { cancelled = true; } // cancelled as it got it
      if (lease != null) semaphore.returnLease(lease); else lock.release();
      if (cancelled) finish("cancelled");
      return null;
    });
    pollForWaitingNode(nodeParent);
  }

  /** Reports `waiting` once our node shows up while the lock is not ours yet. */
  private void pollForWaitingNode(String parent) {
    CuratorDriver.pool.submit(() -> {
      while (!acquired.get() && !finished) {
        String node = CuratorDriver.findByData(zooKeeper(), parent, data);
        if (node != null) { sendWaiting(node); return null; }
        Thread.sleep(10);
      }
      return null;
    });
  }

  private synchronized void sendWaiting(String node) throws Exception {
    if (acquired.get() || finished || !waitingSent.compareAndSet(false, true)) return;
    CuratorDriver.emit("waiting", id, "kind", kind, "node", node, "session", CuratorDriver.sessionHex(zooKeeper().getSessionId()));
  }

  private synchronized void onAcquired(String node) throws Exception {
    if (!acquired.compareAndSet(false, true)) return;
    CuratorDriver.emit("acquired", id, "kind", kind, "node", node, "session", CuratorDriver.sessionHex(zooKeeper().getSessionId()));
  }

  private void finish(String event, Object... fields) {
    finished = true;
    CuratorDriver.contenders.remove(id);
    CuratorDriver.emit(event, id, fields);
    close();
  }

  // ---------- elections ----------

  private void startLatch() throws Exception {
    curator = CuratorDriver.newCurator();
    latch = new LeaderLatch(curator, path, id);
    latch.addListener(new LeaderLatchListener() {
      public void isLeader() { try { onAcquired(latch.getOurPath()); } catch (Exception e) { /* reported by release */ } }
      public void notLeader() { CuratorDriver.emit("notLeader", id); }
    });
    latch.start();
    CuratorDriver.pool.submit(() -> {
      while (!acquired.get() && !finished) {
        String node = latch.getOurPath();
        if (node != null && !latch.hasLeadership()) { sendWaiting(node); return null; }
        Thread.sleep(10);
      }
      return null;
    });
  }

  private void startSelector() throws Exception {
    curator = CuratorDriver.newCurator();
    selector = new LeaderSelector(curator, path, new LeaderSelectorListenerAdapter() {
      public void takeLeadership(CuratorFramework client) throws Exception {
        onAcquired(CuratorDriver.findByData(zooKeeper(), path, data));
        leadershipEnds.await();
      }
    });
    selector.setId(id);
    selector.start();
    pollForWaitingNode(path);
  }

  private void startWriteLock(long timeoutMs) throws Exception {
    zk = CuratorDriver.newZooKeeper();
    CuratorDriver.mkdirs(zk, path);
    writeLock = new WriteLock(zk, path, ZooDefs.Ids.OPEN_ACL_UNSAFE, new LockListener() {
      public void lockAcquired() { try { onAcquired(writeLock.getId()); } catch (Exception e) { /* ignore */ } }
      public void lockReleased() { }
    });
    if (writeLock.lock()) onAcquired(writeLock.getId());
    else sendWaiting(writeLock.getId());
    if (timeoutMs >= 0) CuratorDriver.pool.submit(() -> {
      Thread.sleep(timeoutMs);
      if (!acquired.get() && !finished && CuratorDriver.contenders.remove(id) != null) { writeLock.unlock(); finish("timeout"); }
      return null;
    });
  }

  private void startElection() throws Exception {
    zk = CuratorDriver.newZooKeeper();
    CuratorDriver.mkdirs(zk, path);
    election = new LeaderElectionSupport();
    election.setZooKeeper(zk);
    election.setRootNodeName(path);
    election.setHostName(id);
    election.addListener(type -> {
      try {
        switch (type) {
          case ELECTED_COMPLETE: onAcquired(CuratorDriver.findByData(zk, path, data)); break;
          case READY_COMPLETE: sendWaiting(CuratorDriver.findByData(zk, path, data)); break;
          case FAILED: CuratorDriver.emit("failed", id); break;
          default:
        }
      } catch (Exception e) { /* ignore */ }
    });
    election.start();
  }

  // ---------- release ----------

  void release() throws Exception {
    boolean held = acquired.get();
    if (!held && task != null) {
      task.cancel(true); // interrupts acquire(): Curator deletes its node; the task reports `cancelled`
      return;
    }
    finished = true;
    if (task != null) { leadershipEnds.countDown(); task.get(); }
    if (latch != null) latch.close();
    if (selector != null) { leadershipEnds.countDown(); selector.close(); }
    if (writeLock != null) writeLock.unlock();
    if (election != null) election.stop();
    CuratorDriver.emit(held ? "released" : "cancelled", id);
    close();
  }

  void close() {
    finished = true;
    try { if (curator != null) curator.close(); } catch (Exception e) { /* closing anyway */ }
    try { if (zk != null) zk.close(); } catch (Exception e) { /* closing anyway */ }
  }
}
