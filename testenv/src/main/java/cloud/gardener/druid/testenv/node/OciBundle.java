package cloud.gardener.druid.testenv.node;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One container's runc bundle ({@code config.json}) and the runc command lines that run and
 * release it. Namespaces: mount, pid, ipc, uts; the network namespace is the host's (pods keep
 * their 127.x addresses); no user namespace, no resource limits.
 *
 * @param argv    {@code runc run} in the foreground: SIGTERM to it reaches the container's PID 1
 * @param release {@code runc delete --force}: kills what is left and drops runc's state
 */
record OciBundle(List<String> argv, Runnable release) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The container's /etc/resolv.conf, as a kubelet gives every container one: names resolve
   * from the bind-mounted /etc/hosts, and a name that is not there is asked of loopback only
   * (nothing answers there). Without the file, Netty's resolver (the agent's etcd client)
   * falls back to public DNS servers.
   */
  static final String RESOLV_CONF = """
      # written by druid-testenv's node simulator: pod names are in /etc/hosts
      nameserver 127.0.0.1
      options attempts:1 timeout:1
      """;

  /** Paths of the pod's environment that name host paths; a real container has its own. */
  private static final Set<String> HOST_ONLY_ENV = Set.of("PATH", "HOME",
      MountPaths.POD_ROOT_ENV, "KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN", "KUBERNETES_CERTS_CA_FILE",
      "KUBERNETES_AUTH_TRYKUBECONFIG");

  /**
   * What a container needs.
   *
   * @param id        runc container id, unique on the node
   * @param stateRoot runc's {@code --root}
   * @param bundleDir where {@code config.json} goes
   * @param command   the container's command (replaces the image entrypoint when not empty)
   * @param args      the container's args (replace the image cmd when not empty)
   * @param env       the pod's environment for the container (values not path-rewritten)
   * @param mounts    volume mounts: container path → host path
   * @param readOnly  mount paths mounted read-only
   * @param runAsUser the pod's runAsUser/runAsGroup, null for the image's user
   * @param hostname  the pod's hostname
   * @param chownable host directories that may be handed to the container's user (as fsGroup)
   */
  record Request(String id, Path stateRoot, Path bundleDir, List<String> command,
      List<String> args, Map<String, String> env, List<MountPaths.Mount> mounts,
      Set<String> readOnly, Long runAsUser, Long runAsGroup, String hostname,
      List<Path> chownable) {
  }

  static OciBundle write(OciImage.Unpacked image, Path hostsFile, Request request) {
    long[] user = user(image, request);
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("ociVersion", "1.0.2");
    Map<String, Object> process = new LinkedHashMap<>();
    process.put("terminal", false);
    process.put("user", Map.of("uid", user[0], "gid", user[1]));
    process.put("args", argv(image, request));
    process.put("env", env(image, request));
    process.put("cwd", image.workingDir().isEmpty() ? "/" : image.workingDir());
    List<String> caps = user[0] == 0 ? List.of("CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER",
        "CAP_FSETID", "CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP",
        "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT") : List.of();
    process.put("capabilities", Map.of("bounding", caps, "effective", caps, "permitted", caps));
    process.put("noNewPrivileges", true);
    config.put("process", process);
    config.put("root", Map.of("path", image.rootfs().toString(), "readonly", true));
    config.put("hostname", request.hostname());
    config.put("mounts", mounts(hostsFile, request.bundleDir().resolve("resolv.conf"), request));
    Map<String, Object> linux = new LinkedHashMap<>();
    linux.put("namespaces", List.of(Map.of("type", "pid"), Map.of("type", "ipc"),
        Map.of("type", "uts"), Map.of("type", "mount")));
    linux.put("maskedPaths", List.of("/proc/acpi", "/proc/kcore", "/proc/keys",
        "/proc/latency_stats", "/proc/timer_list", "/proc/sched_debug", "/sys/firmware"));
    linux.put("readonlyPaths", List.of("/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys",
        "/proc/sysrq-trigger"));
    config.put("linux", linux);
    for (MountPaths.Mount mount : request.mounts()) {
      if (!request.readOnly().contains(mount.mountPath())
          && request.chownable().stream().anyMatch(mount.hostPath()::startsWith)) {
        OciImage.run(List.of("chown", "-R", user[0] + ":" + user[1], mount.hostPath().toString()));
      }
    }
    try {
      Files.createDirectories(request.bundleDir());
      Files.writeString(request.bundleDir().resolve("resolv.conf"), RESOLV_CONF);
      JSON.writerWithDefaultPrettyPrinter()
          .writeValue(request.bundleDir().resolve("config.json").toFile(), config);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String root = request.stateRoot().toString();
    List<String> release = List.of("runc", "--root", root, "delete", "--force", request.id());
    return new OciBundle(List.of("runc", "--root", root, "run", "--bundle",
        request.bundleDir().toString(), request.id()), () -> {
          try {
            OciImage.run(release);
          } catch (RuntimeException alreadyGone) {
            // nothing to release
          }
        });
  }

  /** Kubernetes semantics: command replaces the entrypoint, args replace the cmd. */
  private static List<String> argv(OciImage.Unpacked image, Request request) {
    List<String> argv = new ArrayList<>(request.command().isEmpty() ? image.entrypoint()
        : request.command());
    argv.addAll(request.command().isEmpty() && request.args().isEmpty() ? image.cmd()
        : request.args());
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("container " + request.id()
          + " has no command and its image no entrypoint");
    }
    return argv;
  }

  private static List<String> env(OciImage.Unpacked image, Request request) {
    Map<String, String> env = new LinkedHashMap<>();
    for (String line : image.env()) {
      int eq = line.indexOf('=');
      env.put(eq < 0 ? line : line.substring(0, eq), eq < 0 ? "" : line.substring(eq + 1));
    }
    request.env().forEach((k, v) -> {
      if (!HOST_ONLY_ENV.contains(k)) {
        env.put(k, v);
      }
    });
    env.putIfAbsent("PATH", "/usr/local/bin:/usr/bin:/bin");
    return env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
  }

  /** uid and gid: the pod's runAsUser/runAsGroup, else the image's numeric USER, else root. */
  private static long[] user(OciImage.Unpacked image, Request request) {
    String[] parts = image.user().isEmpty() ? new String[] {"0"} : image.user().split(":", 2);
    long uid;
    try {
      uid = Long.parseLong(parts[0]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("image USER " + image.user()
          + " is not numeric; only numeric users are supported");
    }
    long gid = parts.length > 1 ? Long.parseLong(parts[1]) : uid;
    if (request.runAsUser() != null) {
      uid = request.runAsUser();
      gid = request.runAsGroup() != null ? request.runAsGroup() : uid;
    } else if (request.runAsGroup() != null) {
      gid = request.runAsGroup();
    }
    return new long[] {uid, gid};
  }

  private static Map<String, Object> mount(String destination, String type, String source,
      List<String> options) {
    Map<String, Object> mount = new LinkedHashMap<>();
    mount.put("destination", destination);
    mount.put("type", type);
    mount.put("source", source);
    if (!options.isEmpty()) {
      mount.put("options", options);
    }
    return mount;
  }

  private static List<Map<String, Object>> mounts(Path hostsFile, Path resolvConf,
      Request request) {
    List<Map<String, Object>> mounts = new ArrayList<>();
    mounts.add(mount("/proc", "proc", "proc", List.of()));
    mounts.add(mount("/dev", "tmpfs", "tmpfs",
        List.of("nosuid", "strictatime", "mode=755", "size=65536k")));
    mounts.add(mount("/dev/pts", "devpts", "devpts",
        List.of("nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620")));
    mounts.add(mount("/dev/shm", "tmpfs", "shm",
        List.of("nosuid", "noexec", "nodev", "mode=1777", "size=65536k")));
    mounts.add(mount("/sys", "bind", "/sys", List.of("rbind", "nosuid", "noexec", "nodev", "ro")));
    boolean tmpMounted = request.mounts().stream().anyMatch(m -> m.mountPath().equals("/tmp"));
    if (!tmpMounted) {
      mounts.add(mount("/tmp", "tmpfs", "tmpfs", List.of("nosuid", "nodev", "mode=1777")));
    }
    mounts.add(mount("/etc/hosts", "bind", hostsFile.toString(), List.of("rbind", "ro")));
    mounts.add(mount("/etc/resolv.conf", "bind", resolvConf.toString(), List.of("rbind", "ro")));
    // Shortest mount path first, so that nested mounts land on top of their parents.
    request.mounts().stream()
        .sorted(java.util.Comparator.comparingInt(m -> m.mountPath().length()))
        .forEach(m -> mounts.add(mount(m.mountPath(), "bind", m.hostPath().toString(),
            List.of("rbind", request.readOnly().contains(m.mountPath()) ? "ro" : "rw"))));
    return mounts;
  }
}
