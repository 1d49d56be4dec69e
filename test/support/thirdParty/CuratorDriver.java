// Test driver for Apache Curator 5.4.0 recipes and ZooKeeper's own recipes (Debian's jars in /usr/share/java),
// used by ZooScope's interoperability tests and benchmarks. Compiled and started by curator.ts; see driver.ts for
// the line protocol shared with the kazoo driver:
//   stdin:  one command per line, words separated by spaces, trailing `key=value` options.
//   stdout: one JSON object per line, always with an "event" field (`ready` first).
// Every contender id gets a ZooKeeper session of its own (like a separate process). Node data is the id, so a
// contender's node can be found by its data (recipes that fix their data, like ZooKeeper's WriteLock, report the
// node they created).
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.time.Instant;
import java.util.*;
import java.util.concurrent.*;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.*;
import org.apache.curator.framework.recipes.locks.*;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.*;
import org.apache.zookeeper.recipes.leader.LeaderElectionAware;
import org.apache.zookeeper.recipes.leader.LeaderElectionSupport;
import org.apache.zookeeper.recipes.lock.LockListener;
import org.apache.zookeeper.recipes.lock.WriteLock;

public class CuratorDriver {
  static String connectString;
  static int sessionTimeoutMs = 15000;
  static final Map<String, Contender> contenders = new ConcurrentHashMap<>();
  static final ExecutorService pool = Executors.newCachedThreadPool(r -> { Thread t = new Thread(r); t.setDaemon(true); return t; });

  public static void main(String[] args) throws Exception {
    connectString = args[0];
    if (args.length > 1) sessionTimeoutMs = Integer.parseInt(args[1]);
    emit("ready", null, "pid", ProcessHandle.current().pid());
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      final String command = line.trim();
      if (command.isEmpty()) continue;
      if (command.equals("quit")) break;
      pool.submit(() -> run(command));
    }
    for (Contender c : contenders.values()) c.close();
    System.exit(0);
  }

  // ---------- output ----------

  static double now() { Instant i = Instant.now(); return i.getEpochSecond() * 1000.0 + i.getNano() / 1e6; }

  static String json(Object v) {
    if (v == null) return "null";
    if (v instanceof Number || v instanceof Boolean) return v.toString();
    StringBuilder b = new StringBuilder("\"");
    for (char c : v.toString().toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  /** Prints {"event":..., "id":..., "t":..., key: value, ...}. */
  static synchronized void emit(String event, String id, Object... fields) {
    StringBuilder b = new StringBuilder("{\"event\":").append(json(event));
    if (id != null) b.append(",\"id\":").append(json(id));
    b.append(",\"t\":").append(String.format(Locale.ROOT, "%.3f", now()));
    for (int i = 0; i + 1 < fields.length; i += 2) b.append(',').append(json(fields[i])).append(':').append(json(fields[i + 1]));
    System.out.println(b.append('}'));
    System.out.flush();
  }

  // ---------- commands ----------

  static void run(String line) {
    List<String> words = new ArrayList<>();
    Map<String, String> opts = new HashMap<>();
    for (String w : line.split("\\s+")) {
      int eq = w.indexOf('=');
      if (eq > 0) opts.put(w.substring(0, eq), w.substring(eq + 1)); else words.add(w);
    }
    String id = words.size() > 1 ? words.get(1) : null;
    try {
      switch (words.get(0)) {
        case "acquire": acquire(words, opts); break;
        case "release": release(id); break;
        case "cycles": Cycles.run(words, opts); break;
        case "handoff": Handoff.run(words, opts); break;
        default: emit("error", id, "command", line, "message", "unknown command");
      }
    } catch (Throwable e) {
      emit("error", id, "command", line, "message", String.valueOf(e));
    }
  }

  /** acquire <id> <kind> <path> [n] [timeout=<s>] */
  static void acquire(List<String> w, Map<String, String> opts) throws Exception {
    String id = w.get(1), kind = w.get(2), path = w.get(3);
    if (contenders.containsKey(id)) { emit("error", id, "message", "id in use"); return; }
    Contender c = new Contender(id, kind, path, w.size() > 4 ? Integer.parseInt(w.get(4)) : 1);
    contenders.put(id, c);
    long timeoutMs = opts.containsKey("timeout") ? (long) (Double.parseDouble(opts.get("timeout")) * 1000) : -1;
    c.start(timeoutMs);
  }

  static void release(String id) throws Exception {
    Contender c = contenders.remove(id);
    if (c == null) { emit("error", id, "message", "unknown id"); return; }
    c.release();
  }

  static CuratorFramework newCurator() throws InterruptedException {
    CuratorFramework client = CuratorFrameworkFactory.builder().connectString(connectString)
        .sessionTimeoutMs(sessionTimeoutMs).connectionTimeoutMs(10000).retryPolicy(new RetryNTimes(20, 200)).build();
    client.start();
    if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("Curator could not connect");
    return client;
  }

  static ZooKeeper newZooKeeper() throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper zk = new ZooKeeper(connectString, sessionTimeoutMs, e -> {
      if (e.getState() == Watcher.Event.KeeperState.SyncConnected) connected.countDown();
    });
    if (!connected.await(20, TimeUnit.SECONDS)) throw new IllegalStateException("ZooKeeper client could not connect");
    return zk;
  }

  static String sessionHex(long id) { return "0x" + Long.toHexString(id); }

  /** The child of `parent` whose data is `data`, as a full path, or null. */
  static String findByData(ZooKeeper zk, String parent, byte[] data) {
    try {
      for (String child : zk.getChildren(parent, false)) {
        try {
          if (Arrays.equals(zk.getData(parent + "/" + child, false, null), data)) return parent + "/" + child;
        } catch (KeeperException.NoNodeException gone) { /* released meanwhile */ }
      }
    } catch (Exception e) { /* parent missing yet */ }
    return null;
  }

  static void mkdirs(ZooKeeper zk, String path) throws Exception {
    StringBuilder p = new StringBuilder();
    for (String part : path.substring(1).split("/")) {
      p.append('/').append(part);
      try { zk.create(p.toString(), new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT); }
      catch (KeeperException.NodeExistsException exists) { /* fine */ }
    }
  }
}
