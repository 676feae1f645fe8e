package cloud.gardener.druid.operator.contract;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * A recording's watches, of the member pods, of the Etcd and of the operator's copy of the
 * peer certificates (its CA bundle is part of the member revision), each started from a list. After
 * the API server restarted, a watch from a version older than its new watch cache ends with 410
 * Gone (and fabric8 waits up to half a minute before it reconnects at all), while the operator's
 * informers relist: then, or when asked, the watches resume from a new list. The old watches
 * are closed only once the list is taken, so that no moment goes unwatched.
 */
final class ResumableWatches implements AutoCloseable {

  /** Where the lists and events go. */
  interface Sink {

    /** A list was taken (a later one when {@code resuming}); the watches start from it next. */
    void listed(boolean resuming, PodList pods, Etcd etcd, Secret peerTls);

    void event(String kind, String action, HasMetadata object);

    /** A watch ended with another error, or a resume failed: the history is incomplete. */
    void broken();
  }

  private final Resource<Etcd> etcds;
  private final FilterWatchListDeletable<Pod, PodList, PodResource> pods;
  private final Resource<Secret> peerTls;
  private final Sink sink;
  private final Object resumeLock = new Object();
  private final List<Watch> watches = new ArrayList<>();
  private boolean closed;
  private volatile int generation;

  ResumableWatches(Resource<Etcd> etcds, FilterWatchListDeletable<Pod, PodList, PodResource> pods,
      Resource<Secret> peerTls, Sink sink) {
    this.etcds = etcds;
    this.pods = pods;
    this.peerTls = peerTls;
    this.sink = sink;
  }

  void start() {
    watchFromList(false);
  }

  /** Resumes both watches from a new list; throws while the API server does not answer. */
  void resume() {
    synchronized (resumeLock) {
      watchFromList(true);
    }
  }

  private void watchFromList(boolean resuming) {
    PodList podList = pods.list();
    Secret certificates = peerTls.get();
    Etcd now = etcds.get();
    List<Watch> old;
    synchronized (this) {
      if (closed) {
        return;
      }
      sink.listed(resuming, podList, now, certificates);
      old = List.copyOf(watches);
      watches.clear();
      int g = ++generation;
      watches.add(pods.withResourceVersion(podList.getMetadata().getResourceVersion())
          .watch(watcher("Pod", g)));
      watches.add(etcds.withResourceVersion(now.getMetadata().getResourceVersion())
          .watch(watcher("Etcd", g)));
      // resource versions are one sequence across kinds: from the pod list's, nothing is missed
      watches.add(peerTls.withResourceVersion(podList.getMetadata().getResourceVersion())
          .watch(watcher("Secret", g)));
    }
    old.forEach(Watch::close);
  }

  /** A watch of generation {@code g}: a 410 of a watch already replaced resumes nothing. */
  private <T extends HasMetadata> Watcher<T> watcher(String kind, int g) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, T resource) {
        sink.event(kind, action.name(), resource);
      }

      @Override
      public void onClose(WatcherException cause) {
        if (cause != null && cause.isHttpGone()) {
          if (g != generation) {
            return;
          }
          Thread t = new Thread(ResumableWatches.this::resumeOrBreak, "rollout-recorder-resume");
          t.setDaemon(true);
          t.start(); // not on the watch's own thread, which the resume closes
        } else if (cause != null) {
          sink.broken();
        }
      }
    };
  }

  private void resumeOrBreak() {
    try {
      resume();
    } catch (RuntimeException e) {
      sink.broken();
    }
  }

  @Override
  public void close() {
    List<Watch> open;
    synchronized (this) {
      closed = true;
      open = List.copyOf(watches);
    }
    open.forEach(Watch::close);
  }
}
