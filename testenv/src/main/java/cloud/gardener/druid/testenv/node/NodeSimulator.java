package cloud.gardener.druid.testenv.node;

import cloud.gardener.druid.testenv.process.ProcessLedger;
import cloud.gardener.druid.testenv.storage.HostPathProvisioner;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays scheduler, kubelet, cluster DNS and storage provisioner for one simulated Node: binds
 * pending pods of the default scheduler to it, runs their containers as local processes on a
 * loopback address per pod (see {@link PodWorker}), keeps their logs and serves them on the
 * kubelet API (see {@link ContainerLogs}, {@link KubeletServer}), publishes pod and service
 * names (see {@link PodDns}) and provisions volumes (see {@link HostPathProvisioner}).
 */
public final class NodeSimulator implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(NodeSimulator.class);

  private final KubernetesClient client;
  private final NodeSimulatorConfig config;
  private final NodeContext context;
  private final PodAddresses addresses;
  private final Map<String, PodWorker> workers = new ConcurrentHashMap<>();
  private final Set<String> finished = ConcurrentHashMap.newKeySet();
  private final ExecutorService podThreads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r);
    t.setDaemon(true);
    return t;
  });
  private final ScheduledExecutorService dnsThread = Executors.newSingleThreadScheduledExecutor(
      r -> {
        Thread t = new Thread(r, "pod-dns");
        t.setDaemon(true);
        return t;
      });
  private final AtomicBoolean dnsDirty = new AtomicBoolean(true);
  private final AtomicBoolean hostsWarned = new AtomicBoolean();
  private volatile List<String> publishedHosts = List.of();
  /** Every pod and service name this node published: gone ones still resolve (PodDns). */
  private final Set<String> knownNames = new java.util.HashSet<>();
  private NodeRegistration registration;
  private KubeletServer kubelet;
  private HostPathProvisioner provisioner;
  private SharedIndexInformer<Pod> pods;
  private SharedIndexInformer<Service> services;
  private SharedIndexInformer<Secret> secrets;
  private SharedIndexInformer<ConfigMap> configMaps;

  private NodeSimulator(KubernetesClient client, NodeSimulatorConfig config, ProcessLedger ledger) {
    this.client = client;
    this.config = config;
    this.addresses = PodAddresses.claim();
    this.context = new NodeContext(client, config.nodeName(), config.workDir().toAbsolutePath(),
        config.apiServerPort(), config.runtimes(), addresses, ledger, () -> dnsDirty.set(true),
        new ContainerLogs(config.workDir().toAbsolutePath().resolve("logs"),
            config.workDir().toAbsolutePath().resolve("pod-logs"),
            ContainerLogs.DEFAULT_MAX_BYTES, ContainerLogs.DEFAULT_MAX_FILES),
        config.volumeRefresh());
  }

  /** Registers the node and starts serving pods; pod processes are recorded in {@code ledger}. */
  public static NodeSimulator start(KubernetesClient client, NodeSimulatorConfig config,
      ProcessLedger ledger) {
    NodeSimulator simulator = new NodeSimulator(client, config, ledger);
    try {
      simulator.startServing();
      return simulator;
    } catch (RuntimeException e) {
      simulator.close();
      throw e;
    }
  }

  private void startServing() {
    provisioner = new HostPathProvisioner(client, context.workDir().resolve("volumes")).start();
    kubelet = KubeletServer.start(NodeRegistration.ADDRESS, config.kubelet(), context.logs());
    registration = NodeRegistration.start(client, config.nodeName(), kubelet.port());
    services = client.services().inAnyNamespace().inform(dnsTrigger(), 60_000);
    pods = client.pods().inAnyNamespace().inform(podHandler(), 60_000);
    secrets = client.secrets().inAnyNamespace().inform(volumeSourceHandler("Secret"), 0);
    configMaps = client.configMaps().inAnyNamespace().inform(volumeSourceHandler("ConfigMap"),
        0);
    dnsThread.scheduleWithFixedDelay(this::publishDnsIfDirty, 0, 100, TimeUnit.MILLISECONDS);
  }

  private ResourceEventHandler<Pod> podHandler() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        dispatch(pod);
      }

      @Override
      public void onUpdate(Pod oldPod, Pod pod) {
        dispatch(pod);
      }

      @Override
      public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
        PodWorker worker = workers.get(pod.getMetadata().getUid());
        if (worker != null) {
          worker.update(null);
        }
        context.logs().remove(pod);
        dnsDirty.set(true);
      }
    };
  }

  /** Tells the pods mounting a Secret or ConfigMap that it changed (they refresh after a delay). */
  private <T extends HasMetadata> ResourceEventHandler<T> volumeSourceHandler(String kind) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        changed(obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        if (!Objects.equals(oldObj.getMetadata().getResourceVersion(),
            newObj.getMetadata().getResourceVersion())) {
          changed(newObj);
        }
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        changed(obj);
      }

      private void changed(T obj) {
        workers.values().forEach(w -> w.volumeSourceChanged(obj.getMetadata().getNamespace(),
            kind, obj.getMetadata().getName()));
      }
    };
  }

  private <T> ResourceEventHandler<T> dnsTrigger() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        dnsDirty.set(true);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        dnsDirty.set(true);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        dnsDirty.set(true);
      }
    };
  }

  private void dispatch(Pod pod) {
    String nodeName = pod.getSpec().getNodeName();
    if (nodeName == null || nodeName.isEmpty()) {
      if (isDefaultScheduler(pod) && pod.getMetadata().getDeletionTimestamp() == null) {
        podThreads.submit(() -> bind(pod));
      }
      return;
    }
    if (!nodeName.equals(config.nodeName()) || finished.contains(pod.getMetadata().getUid())) {
      return;
    }
    workers.computeIfAbsent(pod.getMetadata().getUid(), uid -> {
      PodWorker worker = new PodWorker(context, pod);
      podThreads.submit(() -> {
        try {
          worker.run();
        } finally {
          finished.add(uid);
          workers.remove(uid);
        }
      });
      return worker;
    }).update(pod);
  }

  private static boolean isDefaultScheduler(Pod pod) {
    String scheduler = pod.getSpec().getSchedulerName();
    return scheduler == null || scheduler.isEmpty() || scheduler.equals("default-scheduler");
  }

  private void bind(Pod pod) {
    try {
      client.bindings().inNamespace(pod.getMetadata().getNamespace())
          .resource(new BindingBuilder()
              .withNewMetadata().withName(pod.getMetadata().getName())
              .withNamespace(pod.getMetadata().getNamespace()).endMetadata()
              .withNewTarget().withApiVersion("v1").withKind("Node")
              .withName(config.nodeName()).endTarget()
              .build())
          .create();
    } catch (KubernetesClientException e) {
      LOG.debug("binding {}/{} failed: {}", pod.getMetadata().getNamespace(),
          pod.getMetadata().getName(), e.getMessage());
    }
  }

  private void publishDnsIfDirty() {
    if (!dnsDirty.getAndSet(false)) {
      return;
    }
    try {
      Map<String, String> ips = workers.values().stream()
          .filter(w -> w.podIp() != null)
          .collect(Collectors.toMap(PodWorker::uid, PodWorker::podIp));
      List<Pod> ours = pods.getStore().list().stream()
          .filter(p -> config.nodeName().equals(p.getSpec().getNodeName()))
          .toList();
      knownNames.addAll(PodDns.ownedNames(ours, services.getStore().list()));
      List<String> lines = PodDns.withGoneNames(PodDns.hostsLines(ours,
          services.getStore().list(), ips, p -> Optional.ofNullable(workers.get(
              p.getMetadata().getUid())).map(PodWorker::isReady).orElse(false)),
          knownNames, addresses.unreachable());
      if (!lines.equals(publishedHosts)) {
        publish(lines);
      }
    } catch (RuntimeException e) {
      dnsDirty.set(true);
      LOG.debug("publishing pod DNS failed: {}", e.getMessage());
    }
  }

  private void publish(List<String> lines) {
    if (!config.hosts().isWritable()) {
      if (!hostsWarned.getAndSet(true)) {
        LOG.warn("{} is not writable: pod and service names will not resolve",
            config.hosts().path());
      }
      return;
    }
    config.hosts().publish(lines);
    publishedHosts = lines;
  }

  public String nodeName() {
    return config.nodeName();
  }

  /** The loopback address of a pod running here. */
  public Optional<String> podIp(String namespace, String name) {
    return workers.values().stream()
        .filter(w -> w.podIp() != null)
        .filter(w -> pods.getStore().list().stream().anyMatch(p ->
            Objects.equals(p.getMetadata().getUid(), w.uid())
                && p.getMetadata().getNamespace().equals(namespace)
                && p.getMetadata().getName().equals(name)))
        .map(PodWorker::podIp)
        .findFirst();
  }

  /**
   * Every line a container of that name printed, across restarts and pods of that name:
   * {@code <workDir>/logs/<ns>_<pod>_<container>.log} (the kubelet API serves the per-run files).
   */
  public Path containerLog(String namespace, String pod, String container) {
    return context.logsDir().resolve(namespace + "_" + pod + "_" + container + ".log");
  }

  /** The /16 of 127.0.0.0/8 this simulator gives pod addresses from. */
  public String podSubnet() {
    return addresses.subnet();
  }

  /** Stops every pod process at once (SIGTERM, 5 s, SIGKILL) and unpublishes the names. */
  @Override
  public void close() {
    if (pods != null) {
      pods.close();
    }
    if (services != null) {
      services.close();
    }
    if (secrets != null) {
      secrets.close();
    }
    if (configMaps != null) {
      configMaps.close();
    }
    dnsThread.shutdownNow();
    workers.values().forEach(w -> w.update(null));
    podThreads.shutdownNow();
    try {
      podThreads.awaitTermination(15, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (registration != null) {
      registration.close();
    }
    if (kubelet != null) {
      kubelet.close();
    }
    if (provisioner != null) {
      provisioner.close();
    }
    if (config.hosts().isWritable()) {
      config.hosts().remove();
    }
    addresses.close();
  }
}
