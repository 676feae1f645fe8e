package cloud.gardener.druid.agent.etcd;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.Optional;

/**
 * Puts {@link EtcdAuth}'s token on every gRPC call of a jetcd client (etcd reads it from the
 * {@code token} header). A call etcd refuses for its token makes the next one authenticate
 * again; jetcd retries a call refused for an invalid token once. When authentication fails
 * the call fails with that reason, which names the credential files, not their content.
 */
final class EtcdAuthInterceptor implements ClientInterceptor {

  private static final Metadata.Key<String> TOKEN =
      Metadata.Key.of("token", Metadata.ASCII_STRING_MARSHALLER);

  private final EtcdAuth auth;

  EtcdAuthInterceptor(EtcdAuth auth) {
    this.auth = auth;
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method,
      CallOptions options, Channel next) {
    Optional<String> token;
    try {
      token = auth.token();
    } catch (EtcdException e) {
      return new Refused<>(Status.UNAUTHENTICATED.withDescription(e.getMessage()));
    }
    String used = token.orElse(null);
    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
      @Override
      public void start(Listener<R> listener, Metadata headers) {
        if (used != null) {
          headers.put(TOKEN, used);
        }
        super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(
            listener) {
          @Override
          public void onClose(Status status, Metadata trailers) {
            if (!status.isOk()) {
              auth.refused(used, status.getDescription());
            }
            super.onClose(status, trailers);
          }
        }, headers);
      }
    };
  }

  /** A call that fails at its start without reaching etcd. */
  private static final class Refused<Q, R> extends ClientCall<Q, R> {
    private final Status status;

    Refused(Status status) {
      this.status = status;
    }

    @Override
    public void start(Listener<R> listener, Metadata headers) {
      listener.onClose(status, new Metadata());
    }

    @Override
    public void request(int numMessages) {
    }

    @Override
    public void cancel(String message, Throwable cause) {
    }

    @Override
    public void halfClose() {
    }

    @Override
    public void sendMessage(Q message) {
    }
  }
}
