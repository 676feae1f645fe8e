package cloud.gardener.druid.agent.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --additional-advertise-peer-urls} of {@code druid agent}, a picocli mixin: the Etcd's
 * {@code spec.etcd.additionalAdvertisePeerURLs} for every member; each agent takes its own.
 */
public final class AdditionalPeerUrlsOption {

  @Option(names = "--additional-advertise-peer-urls", paramLabel = "NAME=PEER_URL[,...]",
      description = "Peer URLs members advertise besides their own (a name repeated for each"
          + " URL); this member takes the entries of its own name.")
  private String urls;

  /** The additional peer URLs of member {@code name}. */
  public List<URI> forMember(String name) {
    List<URI> mine = new ArrayList<>();
    if (urls == null || urls.isBlank()) {
      return mine;
    }
    for (String entry : urls.split(",")) {
      String[] parts = entry.split("=", 2);
      if (parts.length != 2) {
        throw new IllegalArgumentException("--additional-advertise-peer-urls: expected"
            + " NAME=PEER_URL, not " + entry);
      }
      URI url = URI.create(parts[1].trim());
      if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())
          || url.getHost() == null) {
        throw new IllegalArgumentException("--additional-advertise-peer-urls: " + parts[1]
            + " is not an http(s) URL");
      }
      if (parts[0].trim().equals(name)) {
        mine.add(url);
      }
    }
    return mine;
  }
}
