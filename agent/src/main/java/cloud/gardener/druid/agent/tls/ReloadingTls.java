package cloud.gardener.druid.agent.tls;

import cloud.gardener.druid.agent.tls.TlsContexts;
import cloud.gardener.druid.agent.tls.TlsFiles;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link SSLContext} that follows its PEM files: the kubelet rewrites a mounted Secret in
 * place when it changes (the operator rotates the agent API's certificates before they
 * expire), and each handshake after a change uses the new identity and CA bundle, at most
 * {@code recheck} later, without a restart. Files that cannot be read (e.g. half of a
 * rotation written) leave the previous version in use.
 */
public final class ReloadingTls {

  private static final Logger LOG = LoggerFactory.getLogger(ReloadingTls.class);

  private record Version(List<byte[]> contents, TlsContexts.Managers managers) {
  }

  private final TlsFiles files;
  private final Clock clock;
  private final Duration recheck;
  private volatile Version current;
  private volatile Instant checkedAt;

  public ReloadingTls(TlsFiles files, Clock clock, Duration recheck) throws IOException {
    this.files = files;
    this.clock = clock;
    this.recheck = recheck;
    this.current = new Version(read(), TlsContexts.managers(files));
    this.checkedAt = clock.instant();
  }

  /** The context whose every handshake uses the files' current version. */
  public SSLContext context() throws IOException {
    return TlsContexts.context(new Keys(), files.ca() == null ? null : new Trust());
  }

  private TlsContexts.Managers managers() {
    Instant now = clock.instant();
    if (now.isBefore(checkedAt.plus(recheck))) {
      return current.managers();
    }
    synchronized (this) {
      if (now.isBefore(checkedAt.plus(recheck))) {
        return current.managers();
      }
      checkedAt = now;
      try {
        List<byte[]> contents = read();
        if (!same(contents, current.contents())) {
          current = new Version(contents, TlsContexts.managers(files));
          LOG.info("reloaded the TLS files of the agent API ({})", files.cert().getParent());
        }
      } catch (IOException e) {
        LOG.warn("keeping the previous TLS files of the agent API: {}", e.getMessage());
      }
      return current.managers();
    }
  }

  private List<byte[]> read() throws IOException {
    List<byte[]> contents = new ArrayList<>();
    for (Path p : Arrays.asList(files.ca(), files.cert(), files.key())) {
      contents.add(p == null ? new byte[0] : Files.readAllBytes(p));
    }
    return contents;
  }

  private static boolean same(List<byte[]> a, List<byte[]> b) {
    for (int i = 0; i < a.size(); i++) {
      if (!Arrays.equals(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  private final class Keys extends X509ExtendedKeyManager {
    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return managers().keys().getClientAliases(keyType, issuers);
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return managers().keys().chooseClientAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers,
        SSLEngine engine) {
      return managers().keys().chooseEngineClientAlias(keyType, issuers, engine);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return managers().keys().getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return managers().keys().chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers,
        SSLEngine engine) {
      return managers().keys().chooseEngineServerAlias(keyType, issuers, engine);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return current.managers().keys().getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return current.managers().keys().getPrivateKey(alias);
    }
  }

  private final class Trust extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      managers().trust().checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      managers().trust().checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      managers().trust().checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      managers().trust().checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      managers().trust().checkServerTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      managers().trust().checkServerTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return managers().trust().getAcceptedIssuers();
    }
  }
}
