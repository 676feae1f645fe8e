package cloud.gardener.druid.testenv.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Samples the TCP sockets of every process group in a {@link ProcessLedger} (through
 * {@code /proc/<pid>/fd} and {@code /proc/net/tcp{,6}}) and records each socket whose local or
 * remote address is outside 127.0.0.0/8 and ::1. The network rule of the project says there
 * must be none.
 */
public final class ConnectionAudit implements AutoCloseable {

  /** A socket that broke the rule. */
  public record Violation(String process, long pid, String local, String remote) {
  }

  private final ProcessLedger ledger;
  private final Set<Violation> violations = new LinkedHashSet<>();
  private final AtomicLong socketsSeen = new AtomicLong();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "connection-audit");
    t.setDaemon(true);
    return t;
  });

  public ConnectionAudit(ProcessLedger ledger) {
    this.ledger = ledger;
  }

  public ConnectionAudit startSampling(long periodMillis) {
    timer.scheduleWithFixedDelay(this::sampleQuietly, 0, periodMillis, TimeUnit.MILLISECONDS);
    return this;
  }

  public synchronized List<Violation> violations() {
    return List.copyOf(violations);
  }

  /** How many (socket, sample) pairs were inspected: proves the audit looked at something. */
  public long socketsSeen() {
    return socketsSeen.get();
  }

  private void sampleQuietly() {
    try {
      sample();
    } catch (RuntimeException e) {
      // processes come and go between listing and reading; the next sample sees them
    }
  }

  /** Takes one sample now. */
  public void sample() {
    Map<Long, String> inodeOwners = new HashMap<>();
    Map<String, Long> ownerPids = new HashMap<>();
    for (ProcessLedger.Entry entry : ledger.entries()) {
      for (long pid : groupMembers(entry.pid())) {
        String owner = entry.name() + "/" + pid;
        ownerPids.put(owner, pid);
        socketInodes(pid).forEach(inode -> inodeOwners.put(inode, owner));
      }
    }
    if (inodeOwners.isEmpty()) {
      return;
    }
    List<Violation> found = new ArrayList<>();
    for (ProcNetTcp.Socket socket : ProcNetTcp.readAll()) {
      String owner = inodeOwners.get(socket.inode());
      if (owner == null) {
        continue;
      }
      socketsSeen.incrementAndGet();
      if (!socket.isLoopbackOnly()) {
        found.add(new Violation(owner, ownerPids.get(owner), socket.local(), socket.remote()));
      }
    }
    synchronized (this) {
      violations.addAll(found);
    }
  }

  private static Set<Long> groupMembers(long pgid) {
    Set<Long> members = new HashSet<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      procs.map(p -> p.getFileName().toString())
          .filter(n -> n.chars().allMatch(Character::isDigit))
          .map(Long::parseLong)
          .filter(pid -> processGroupOf(pid) == pgid)
          .forEach(members::add);
    } catch (IOException e) {
      return members;
    }
    return members;
  }

  static long processGroupOf(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[2]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static Set<Long> socketInodes(long pid) {
    Set<Long> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      fds.forEach(fd -> {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(Long.parseLong(target.substring(8, target.length() - 1)));
          }
        } catch (IOException | RuntimeException e) {
          // fd closed meanwhile
        }
      });
    } catch (IOException e) {
      return inodes;
    }
    return inodes;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
