package cloud.gardener.druid.agent.verify;

import cloud.gardener.druid.api.verify.DrillReport.Reason;

/** A drill stops at the first object that fails: named, with why. */
final class DrillFailure extends Exception {

  private final String object;
  private final Reason reason;

  DrillFailure(String object, Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.object = object;
    this.reason = reason;
  }

  String object() {
    return object;
  }

  Reason reason() {
    return reason;
  }
}
