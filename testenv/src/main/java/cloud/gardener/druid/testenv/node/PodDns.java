package cloud.gardener.druid.testenv.node;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The DNS records a cluster DNS would serve for pods of this node, as hosts-file lines:
 * <ul>
 *   <li>{@code <hostname>.<subdomain>.<ns>.svc[.cluster.local]} → the pod's address, for every
 *       pod with hostname and subdomain that has an address, until the pod is gone (whether or
 *       not a headless service of that name exists, ready or not: as with
 *       {@code publishNotReadyAddresses});</li>
 *   <li>{@code <service>.<ns>.svc[.cluster.local]} → the address of every ready pod selected
 *       by the service (every pod with an address if the service publishes not-ready
 *       addresses), terminating pods excluded. Never a ClusterIP.</li>
 * </ul>
 */
public final class PodDns {

  private static final List<String> SUFFIXES = List.of(".svc", ".svc.cluster.local");

  private PodDns() {
  }

  /** {@code addresses}: pod uid → loopback address of pods that run here. */
  public static List<String> hostsLines(Collection<Pod> pods, Collection<Service> services,
      Map<String, String> addresses, Predicate<Pod> ready) {
    TreeSet<String> lines = new TreeSet<>();
    for (Pod pod : pods) {
      String ip = addresses.get(pod.getMetadata().getUid());
      String hostname = pod.getSpec().getHostname();
      String subdomain = pod.getSpec().getSubdomain();
      if (ip != null && hostname != null && subdomain != null) {
        names(hostname + "." + subdomain + "." + pod.getMetadata().getNamespace())
            .forEach(n -> lines.add(ip + " " + n));
      }
    }
    for (Service service : services) {
      Map<String, String> selector = service.getSpec().getSelector();
      if (selector == null || selector.isEmpty()) {
        continue;
      }
      boolean notReadyToo = Boolean.TRUE.equals(service.getSpec().getPublishNotReadyAddresses());
      String ns = service.getMetadata().getNamespace();
      for (Pod pod : pods) {
        String ip = addresses.get(pod.getMetadata().getUid());
        if (ip != null && ns.equals(pod.getMetadata().getNamespace()) && selects(selector, pod)
            && !isTerminating(pod) && (notReadyToo || ready.test(pod))) {
          names(service.getMetadata().getName() + "." + ns).forEach(n -> lines.add(ip + " " + n));
        }
      }
    }
    return List.copyOf(lines);
  }

  /**
   * Every name the cluster DNS answers for as soon as its object exists, address or not: each
   * pod's {@code <hostname>.<subdomain>} name from its binding on, each selector service's name.
   * Added to the known names, such a name without a line resolves to the unreachable address
   * until it has one, so that no lookup of a pod just created leaves the machine.
   */
  public static Set<String> ownedNames(Collection<Pod> pods, Collection<Service> services) {
    Set<String> names = new TreeSet<>();
    for (Pod pod : pods) {
      String hostname = pod.getSpec().getHostname();
      String subdomain = pod.getSpec().getSubdomain();
      if (hostname != null && subdomain != null) {
        names.addAll(names(hostname + "." + subdomain + "." + pod.getMetadata().getNamespace()));
      }
    }
    for (Service service : services) {
      Map<String, String> selector = service.getSpec().getSelector();
      if (selector != null && !selector.isEmpty()) {
        names.addAll(names(service.getMetadata().getName() + "."
            + service.getMetadata().getNamespace()));
      }
    }
    return names;
  }

  /**
   * {@code lines} plus, for every name in {@code known} that has no line now (its pod or its
   * last ready endpoint is gone), a line sending it to {@code unreachable}: a cluster DNS
   * answers for its names itself, so none may fall through to the machine's resolver. Adds the
   * names of {@code lines} to {@code known}.
   */
  public static List<String> withGoneNames(List<String> lines, Set<String> known,
      String unreachable) {
    Set<String> present = new TreeSet<>();
    lines.forEach(l -> present.add(l.substring(l.indexOf(' ') + 1)));
    known.addAll(present);
    TreeSet<String> all = new TreeSet<>(lines);
    known.stream().filter(n -> !present.contains(n)).forEach(n -> all.add(unreachable + " " + n));
    return List.copyOf(all);
  }

  private static List<String> names(String base) {
    return SUFFIXES.stream().map(s -> base + s).toList();
  }

  private static boolean selects(Map<String, String> selector, Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels != null && selector.entrySet().stream()
        .allMatch(e -> Objects.equals(labels.get(e.getKey()), e.getValue()));
  }

  private static boolean isTerminating(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() != null;
  }
}
