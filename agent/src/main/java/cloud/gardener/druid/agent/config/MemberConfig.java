package cloud.gardener.druid.agent.config;

import cloud.gardener.druid.agent.tls.EtcdCredentials;
import cloud.gardener.druid.agent.tls.TlsFiles;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who this member is: its name, the Etcd it belongs to, where it listens and advertises, the
 * cluster's members by name and peer URL, and its data directory.
 *
 * @param advertiseHost the name others reach this member by ({@code <pod>.<etcd>-peer.<ns>.svc})
 * @param initialCluster every member of the cluster by name, with its peer URL, in order
 * @param peerSkipClientSanVerification accept peer client certificates whose SANs do not name
 *     the connecting address
 * @param existingCluster the running cluster this member joins (empty: it bootstraps or restores)
 * @param additionalPeerUrls peer URLs this member advertises besides its own (the Etcd's
 *     {@code spec.etcd.additionalAdvertisePeerURLs}), e.g. reachable from another network
 * @param etcdCredentials the etcd user the agent authenticates as ({@code spec.etcd.authSecretRef})
 */
public record MemberConfig(
    String name,
    String etcdName,
    String namespace,
    String podIp,
    String advertiseHost,
    int clientPort,
    int peerPort,
    Map<String, URI> initialCluster,
    String clusterToken,
    Path dataDir,
    Optional<TlsFiles> clientTls,
    Optional<TlsFiles> peerTls,
    boolean peerSkipClientSanVerification,
    ExistingCluster existingCluster,
    List<URI> additionalPeerUrls,
    Optional<EtcdCredentials> etcdCredentials) {

  public MemberConfig {
    additionalPeerUrls = List.copyOf(additionalPeerUrls);
  }

  public MemberConfig(String name, String etcdName, String namespace, String podIp,
      String advertiseHost, int clientPort, int peerPort, Map<String, URI> initialCluster,
      String clusterToken, Path dataDir, Optional<TlsFiles> clientTls,
      Optional<TlsFiles> peerTls, boolean peerSkipClientSanVerification) {
    this(name, etcdName, namespace, podIp, advertiseHost, clientPort, peerPort, initialCluster,
        clusterToken, dataDir, clientTls, peerTls, peerSkipClientSanVerification,
        ExistingCluster.none(), List.of(), Optional.empty());
  }

  public MemberConfig(String name, String etcdName, String namespace, String podIp,
      String advertiseHost, int clientPort, int peerPort, Map<String, URI> initialCluster,
      String clusterToken, Path dataDir, Optional<TlsFiles> clientTls,
      Optional<TlsFiles> peerTls) {
    this(name, etcdName, namespace, podIp, advertiseHost, clientPort, peerPort, initialCluster,
        clusterToken, dataDir, clientTls, peerTls, false);
  }

  public MemberConfig withExistingCluster(ExistingCluster existing) {
    return new MemberConfig(name, etcdName, namespace, podIp, advertiseHost, clientPort,
        peerPort, initialCluster, clusterToken, dataDir, clientTls, peerTls,
        peerSkipClientSanVerification, existing, additionalPeerUrls, etcdCredentials);
  }

  public MemberConfig withAdditionalPeerUrls(List<URI> urls) {
    return new MemberConfig(name, etcdName, namespace, podIp, advertiseHost, clientPort,
        peerPort, initialCluster, clusterToken, dataDir, clientTls, peerTls,
        peerSkipClientSanVerification, existingCluster, urls, etcdCredentials);
  }

  public MemberConfig withEtcdCredentials(Optional<EtcdCredentials> credentials) {
    return new MemberConfig(name, etcdName, namespace, podIp, advertiseHost, clientPort,
        peerPort, initialCluster, clusterToken, dataDir, clientTls, peerTls,
        peerSkipClientSanVerification, existingCluster, additionalPeerUrls, credentials);
  }

  /** Every peer URL this member advertises: its own first, then the additional ones. */
  public List<URI> advertisePeerUrls() {
    List<URI> urls = new java.util.ArrayList<>();
    urls.add(advertisePeerUrl());
    additionalPeerUrls.stream().filter(u -> !urls.contains(u)).forEach(urls::add);
    return List.copyOf(urls);
  }

  /**
   * Where this member finds the running cluster, by name: the other members of this Etcd (the
   * client URL of their peer URL's host), then the existing cluster's client endpoints.
   */
  public Map<String, URI> otherClientUrls() {
    Map<String, URI> urls = new LinkedHashMap<>();
    initialCluster.forEach((n, peerUrl) -> {
      if (!n.equals(name)) {
        urls.put(n, clientUrlOf(peerUrl));
      }
    });
    for (URI endpoint : existingCluster.clientEndpoints()) {
      urls.put("existing cluster endpoint " + endpoint, endpoint);
    }
    return urls;
  }

  public String clientScheme() {
    return clientTls.isPresent() ? "https" : "http";
  }

  public String peerScheme() {
    return peerTls.isPresent() ? "https" : "http";
  }

  public URI advertiseClientUrl() {
    return URI.create(clientScheme() + "://" + advertiseHost + ":" + clientPort);
  }

  public URI advertisePeerUrl() {
    return URI.create(peerScheme() + "://" + advertiseHost + ":" + peerPort);
  }

  /** The URL the agent itself uses to reach its etcd: the pod address, never a DNS lookup. */
  public URI localClientUrl() {
    return URI.create(clientScheme() + "://" + podIp + ":" + clientPort);
  }

  /**
   * The client TLS for {@link #localClientUrl()}: no certificate names the pod's address, so
   * etcd's certificate must name this member's host ({@code <member>.<etcd>-peer.<ns>.svc},
   * under the {@code *.<etcd>-peer.<ns>.svc} the docs ask for) or {@code <etcd>-local}
   * (upstream's name for a member's own etcd, in Gardener's certificates).
   */
  public Optional<TlsFiles> localClientTls() {
    return clientTls.map(t -> t.withServerNames(List.of(advertiseHost, etcdName + "-local")));
  }

  /** A member's client URL: the host of its peer URL with the client port. */
  public URI clientUrlOf(URI peerUrl) {
    return URI.create(clientScheme() + "://" + peerUrl.getHost() + ":" + clientPort);
  }

  /** The only member of its cluster: it restores or bootstraps alone, never joins. */
  public boolean isSingleMember() {
    return initialCluster.size() <= 1 && !existingCluster.joins();
  }
}
