package cloud.gardener.druid.agent.http;

/** A request failed with an HTTP status and a message for the caller. */
final class HttpError extends Exception {

  private final int status;

  HttpError(int status, String message) {
    super(message);
    this.status = status;
  }

  int status() {
    return status;
  }
}
