package cloud.gardener.druid.operator.it;

import cloud.gardener.druid.api.Labels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Every pod version of an Etcd's members: the fewest ready members seen at any time. */
final class MemberWatch implements AutoCloseable {
  private final Map<String, Boolean> ready = new ConcurrentHashMap<>();
  private final Map<String, String> endpoints = new ConcurrentHashMap<>();
  private final AtomicInteger minReady = new AtomicInteger(Integer.MAX_VALUE);
  private Watch watch;

  static MemberWatch start(KubernetesClient client, String name) {
    MemberWatch w = new MemberWatch();
    ItSupport.pods(client, name).forEach(w::update);
    w.watch = client.pods().withLabel(Labels.PART_OF, name).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        if (action == Action.DELETED) {
          w.ready.remove(pod.getMetadata().getName());
        } else {
          w.update(pod);
        }
        int count = (int) w.ready.values().stream().filter(Boolean::booleanValue).count();
        w.minReady.accumulateAndGet(count, Math::min);
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    });
    return w;
  }

  private void update(Pod pod) {
    ready.put(pod.getMetadata().getName(), isReady(pod));
    if (pod.getStatus() != null && pod.getStatus().getPodIP() != null) {
      endpoints.put(pod.getMetadata().getName(), "http://" + pod.getStatus().getPodIP()
          + ":2379#" + pod.getMetadata().getUid());
    }
  }

  int minReady() {
    return minReady.get();
  }

  /** The endpoints the client Service would route to now: the ready members (URL#uid). */
  List<String> readyEndpoints() {
    return ready.entrySet().stream().filter(Map.Entry::getValue)
        .map(e -> endpoints.get(e.getKey())).filter(Objects::nonNull).sorted().toList();
  }

  private static boolean isReady(Pod p) {
    return p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
        && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  @Override
  public void close() {
    watch.close();
  }
}
