package cloud.gardener.druid.testenv.node;

import cloud.gardener.druid.testenv.controlplane.InsecureHttp;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs one httpGet (http/https, certificates not verified), tcpSocket or exec probe. */
final class Probes {

  private Probes() {
  }

  static boolean run(Probe probe, Duration timeout, String podIp, Container container,
      ExecContext exec) {
    try {
      if (probe.getHttpGet() != null) {
        return httpGet(probe.getHttpGet(), timeout, podIp, container);
      }
      if (probe.getTcpSocket() != null) {
        return tcp(probe.getTcpSocket().getHost() == null ? podIp : probe.getTcpSocket().getHost(),
            port(probe.getTcpSocket().getPort(), container), timeout);
      }
      if (probe.getExec() != null) {
        return exec.run(probe.getExec().getCommand(), timeout);
      }
      return true;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** How an exec probe's command runs in the container's environment. */
  record ExecContext(ImageRuntime runtime, MountPaths mounts, Map<String, String> env,
      Path workingDir) {

    boolean run(List<String> command, Duration timeout) throws IOException, InterruptedException {
      ProcessBuilder builder = new ProcessBuilder(runtime.execCommandLine(mounts.rewrite(command)))
          .directory(workingDir.toFile())
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      builder.environment().clear();
      builder.environment().putAll(env);
      Process process = builder.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        return false;
      }
      return process.exitValue() == 0;
    }
  }

  private static boolean httpGet(HTTPGetAction action, Duration timeout, String podIp,
      Container container) throws IOException, InterruptedException {
    String scheme = action.getScheme() == null ? "http" : action.getScheme().toLowerCase();
    String host = action.getHost() == null || action.getHost().isEmpty() ? podIp : action.getHost();
    String path = action.getPath() == null ? "/" : action.getPath();
    URI uri = URI.create(scheme + "://" + host + ":" + port(action.getPort(), container)
        + (path.startsWith("/") ? path : "/" + path));
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
    if (action.getHttpHeaders() != null) {
      action.getHttpHeaders().forEach(h -> request.header(h.getName(), h.getValue()));
    }
    int status = InsecureHttp.client().send(request.build(), HttpResponse.BodyHandlers.discarding())
        .statusCode();
    return status >= 200 && status < 400;
  }

  private static boolean tcp(String host, int port, Duration timeout) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
      return true;
    }
  }

  static int port(IntOrString port, Container container) {
    if (port.getIntVal() != null) {
      return port.getIntVal();
    }
    List<ContainerPort> ports = container.getPorts() == null ? List.of() : container.getPorts();
    return ports.stream()
        .filter(p -> port.getStrVal().equals(p.getName()))
        .map(ContainerPort::getContainerPort)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no container port named "
            + port.getStrVal()));
  }
}
