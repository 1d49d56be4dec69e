// Workloads of CuratorDriver (see CuratorDriver.java for the protocol), each on sessions of its own:
//   cycles <path> <n> <logFile> [id=<name>] [kind=mutex|read|write] [hold=<ms>]
//     n times: acquire, append `enter <kind> <name> <i>` to logFile, wait `hold` ms (default 2), append
//     `exit <kind> <name> <i>`, release; then `cycles-done`. Appends are O_APPEND writes of one line, so several
//     processes can share the file and a checker can prove that no two exclusive holders overlapped.
//   handoff <path> <contenders> [rounds=<r>]
//     per round: contender 0 holds an InterProcessMutex, the others queue behind it (all nodes exist), then 0
//     releases and every next holder releases at once; reports the time from the first release to the last
//     acquire divided by the number of hand-offs (`handoff` event, one per round).
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.*;

class Cycles {
  static void run(List<String> w, Map<String, String> opts) throws Exception {
    String path = w.get(1);
    int n = Integer.parseInt(w.get(2));
    Path log = Paths.get(w.get(3));
    String name = opts.getOrDefault("id", "curator-" + ProcessHandle.current().pid());
    String kind = opts.getOrDefault("kind", "mutex");
    long hold = Long.parseLong(opts.getOrDefault("hold", "2"));
    CuratorFramework client = CuratorDriver.newCurator();
    try {
      InterProcessLock lock;
      byte[] data = name.getBytes(StandardCharsets.UTF_8);
      if (kind.equals("mutex")) lock = new InterProcessMutex(client, path);
      else if (kind.equals("read")) lock = new InterProcessReadWriteLock(client, path, data).readLock();
      else lock = new InterProcessReadWriteLock(client, path, data).writeLock();
      for (int i = 0; i < n; i++) {
        lock.acquire();
        try {
          append(log, "enter " + kind + " " + name + " " + i);
          if (hold > 0) Thread.sleep(hold);
          append(log, "exit " + kind + " " + name + " " + i);
        } finally {
          lock.release();
        }
      }
      CuratorDriver.emit("cycles-done", name, "path", path, "n", n);
    } finally {
      client.close();
    }
  }

  static void append(Path log, String line) throws Exception {
    Files.write(log, (line + "\n").getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }
}

class Handoff {
  static void run(List<String> w, Map<String, String> opts) throws Exception {
    String path = w.get(1);
    int count = Integer.parseInt(w.get(2));
    int rounds = Integer.parseInt(opts.getOrDefault("rounds", "1"));
    List<CuratorFramework> clients = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) clients.add(CuratorDriver.newCurator());
      for (int round = 0; round < rounds; round++) round(path, clients, round);
    } finally {
      for (CuratorFramework c : clients) c.close();
    }
  }

  private static void round(String path, List<CuratorFramework> clients, int round) throws Exception {
    int count = clients.size();
    InterProcessMutex first = new InterProcessMutex(clients.get(0), path);
    first.acquire();
    double[] acquiredAt = new double[count];
    List<Future<?>> waiters = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      final int index = i;
      InterProcessMutex mutex = new InterProcessMutex(clients.get(i), path);
      waiters.add(CuratorDriver.pool.submit(() -> {
        mutex.acquire();
        acquiredAt[index] = CuratorDriver.now();
        mutex.release();
        return null;
      }));
    }
    while (clients.get(0).getChildren().forPath(path).size() < count) Thread.sleep(5);
    double releasedAt = CuratorDriver.now();
    first.release();
    for (Future<?> f : waiters) f.get(120, TimeUnit.SECONDS);
    double last = Arrays.stream(acquiredAt).max().getAsDouble();
    int handoffs = count - 1;
    CuratorDriver.emit("handoff", null, "path", path, "round", round, "contenders", count, "handoffs", handoffs,
        "totalMs", last - releasedAt, "perHandoffMs", (last - releasedAt) / handoffs);
  }
}
