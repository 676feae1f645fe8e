package cloud.gardener.druid.agent.http;

import static cloud.gardener.druid.agent.http.Exchanges.json;

import cloud.gardener.druid.agent.etcd.EtcdException;
import cloud.gardener.druid.api.agent.AgentApi;
import cloud.gardener.druid.api.agent.ApiError;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JDK HTTP(S) server under the agent API: who may call a path, on which threads it runs,
 * and the audit log of calls that change state.
 *
 * <ul>
 *   <li>Open paths (probes, metrics) answer anyone. Every other path needs the caller's
 *       client certificate, verified against the CA bundle by the TLS handshake and naming
 *       the expected caller ({@link CallerCheck}); 401 without one, 403 for another name.
 *   <li>Quick paths run on the request threads; everything they wait for has a timeout.
 *       Long paths (full snapshots, defragmentation) run on threads of their own, at most
 *       {@code longSlots} at once; one more is answered {@link AgentApi#BUSY} with
 *       {@code Retry-After} at once, so long work never holds a request thread and probes
 *       are answered while it runs.
 *   <li>The JDK server drops a connection whose request is not read within
 *       {@link #MAX_REQUEST_SECONDS}, or whose answer is not written within
 *       {@link #MAX_RESPONSE_SECONDS}: a slow client cannot hold a request thread.
 * </ul>
 */
final class ApiServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
  static final int REQUEST_THREADS = 8;
  static final int MAX_REQUEST_SECONDS = 15;
  /**
   * The JDK counts this from the request read to the answer written, so it bounds the
   * handlers too: a full snapshot of a large database (the agent allows it 15 minutes, and a
   * second one waits behind the first) must fit. The answers are a few hundred bytes, which a
   * slow reader cannot hold up.
   */
  static final int MAX_RESPONSE_SECONDS = 3600;
  static final int RETRY_AFTER_SECONDS = 10;

  static {
    // read once by the JDK server's configuration, before the first server is created
    System.setProperty("sun.net.httpserver.maxReqTime",
        System.getProperty("sun.net.httpserver.maxReqTime", "" + MAX_REQUEST_SECONDS));
    System.setProperty("sun.net.httpserver.maxRspTime",
        System.getProperty("sun.net.httpserver.maxRspTime", "" + MAX_RESPONSE_SECONDS));
  }

  /** Whether a path is open to anyone, and whether it runs long. */
  enum Kind { OPEN, QUICK, LONG }

  @FunctionalInterface
  interface Handler {
    void handle(HttpExchange exchange) throws Exception;
  }

  private final HttpServer server;
  private final Optional<CallerCheck> callers;
  private final ExecutorService requestThreads;
  private final ExecutorService longThreads;
  private final Semaphore longSlots;
  private final int slots;

  /**
   * @param tls HTTPS with this context, asking for client certificates; plain HTTP when empty
   * @param callers the check of callers; empty: every path is open (tests only)
   */
  ApiServer(InetSocketAddress address, Optional<SSLContext> tls, Optional<CallerCheck> callers,
      int longSlots) throws IOException {
    this.server = tls.isPresent() ? ServerTls.https(address, tls.get(), callers.isPresent())
        : HttpServer.create(address, 64);
    this.callers = callers;
    this.requestThreads = Executors.newFixedThreadPool(REQUEST_THREADS,
        r -> new Thread(r, "http"));
    this.longThreads = Executors.newFixedThreadPool(longSlots, r -> new Thread(r, "http-long"));
    this.longSlots = new Semaphore(longSlots);
    this.slots = longSlots;
    server.setExecutor(requestThreads);
  }

  int port() {
    return server.getAddress().getPort();
  }

  InetSocketAddress address() {
    return server.getAddress();
  }

  void start() {
    server.start();
  }

  /**
   * Serves {@code path} with {@code methods}; calls of {@code audited} paths are logged with
   * their caller and answer.
   */
  void route(String path, Set<String> methods, Kind kind, boolean audited, Handler handler) {
    server.createContext(path, exchange -> {
      String caller = CallerCheck.presented(exchange);
      try {
        if (!exchange.getRequestURI().getPath().equals(path)) {
          throw new HttpError(404, "no such path");
        }
        Exchanges.requireMethod(exchange, methods);
        if (kind != Kind.OPEN && callers.isPresent()) {
          callers.get().check(caller);
        }
        if (kind == Kind.LONG) {
          startLong(exchange, caller, audited, handler);
          return;
        }
        answer(exchange, caller, audited, handler);
      } catch (HttpError e) {
        refuse(exchange, e, audited, caller);
      }
    });
  }

  private void startLong(HttpExchange exchange, String caller, boolean audited,
      Handler handler) throws HttpError {
    if (!longSlots.tryAcquire()) {
      exchange.getResponseHeaders().set("Retry-After", "" + RETRY_AFTER_SECONDS);
      throw new HttpError(AgentApi.BUSY, "busy: " + slots + " long operations (full"
          + " snapshots, defragmentation) are running; retry later");
    }
    try {
      longThreads.execute(() -> {
        try {
          answer(exchange, caller, audited, handler);
        } finally {
          longSlots.release();
        }
      });
    } catch (RejectedExecutionException e) {
      longSlots.release();
      throw new HttpError(503, "the agent is stopping");
    }
  }

  /** Runs the handler, maps its failure to an answer, closes the exchange, audits. */
  private static void answer(HttpExchange exchange, String caller, boolean audited,
      Handler handler) {
    try {
      handler.handle(exchange);
    } catch (HttpError e) {
      send(exchange, e.status(), e.getMessage());
    } catch (EtcdException e) {
      send(exchange, 502, e.getMessage());
    } catch (IllegalStateException e) {
      send(exchange, 409, e.getMessage());
    } catch (Exception e) {
      LOG.warn("{} failed: {}", exchange.getRequestURI().getPath(), e.toString());
      send(exchange, 500, String.valueOf(e.getMessage()));
    } finally {
      exchange.close();
      if (audited) {
        audit(exchange, caller, exchange.getResponseCode());
      }
    }
  }

  private static void refuse(HttpExchange exchange, HttpError e, boolean audited,
      String caller) {
    try {
      send(exchange, e.status(), e.getMessage());
    } finally {
      exchange.close();
      if (audited) {
        audit(exchange, caller, e.status());
      }
    }
  }

  private static void send(HttpExchange exchange, int status, String message) {
    try {
      json(exchange, status, new ApiError(message));
    } catch (IOException | RuntimeException e) {
      LOG.debug("cannot answer {}: {}", exchange.getRequestURI().getPath(), e.toString());
    }
  }

  /** The audit line of a state-changing call: caller, request, answer. */
  private static void audit(HttpExchange exchange, String caller, int status) {
    LOG.info("audit: {} {} by {} from {}: {}", exchange.getRequestMethod(),
        exchange.getRequestURI(), caller, exchange.getRemoteAddress().getAddress()
            .getHostAddress(), status);
  }

  @Override
  public void close() {
    server.stop(0);
    requestThreads.shutdownNow();
    longThreads.shutdownNow();
  }
}
