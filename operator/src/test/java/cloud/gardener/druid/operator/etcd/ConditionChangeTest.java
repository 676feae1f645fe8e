package cloud.gardener.druid.operator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.ConditionTypes;
import cloud.gardener.druid.api.v1alpha1.Condition;
import cloud.gardener.druid.api.v1alpha1.EtcdStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionChangeTest {

  private static final String TYPE = ConditionTypes.VOLUMES_UP_TO_DATE;

  @Test
  void aConditionIsAnnouncedWhenItAppearsOrItsReasonOrMessageChanges() {
    EtcdStatus pending = status(TYPE, "AwaitingConfirmation", "replace the volumes");

    assertThat(ConditionChange.of(null, pending, TYPE)).as("first status").isPresent();
    assertThat(ConditionChange.of(new EtcdStatus(), pending, TYPE)).as("appeared").isPresent();
    assertThat(ConditionChange.of(status(TYPE, "NoBackupStore", "replace the volumes"),
        pending, TYPE)).as("other reason").isPresent();
    assertThat(ConditionChange.of(status(TYPE, "AwaitingConfirmation", "expand the volumes"),
        pending, TYPE)).as("other message").isPresent();
  }

  @Test
  void theSameConditionWrittenAgainOrNoneIsNotAnnounced() {
    EtcdStatus pending = status(TYPE, "AwaitingConfirmation", "replace the volumes");

    assertThat(ConditionChange.of(pending, status(TYPE, "AwaitingConfirmation",
        "replace the volumes"), TYPE)).isEmpty();
    assertThat(ConditionChange.of(pending, new EtcdStatus(), TYPE)).as("gone").isEmpty();
    assertThat(ConditionChange.of(null, null, TYPE)).isEmpty();
    assertThat(ConditionChange.of(null, status(ConditionTypes.READY, "Quorate", "ok"), TYPE))
        .as("another type").isEmpty();
  }

  private static EtcdStatus status(String type, String reason, String message) {
    Condition c = new Condition();
    c.setType(type);
    c.setStatus(ConditionTypes.FALSE);
    c.setReason(reason);
    c.setMessage(message);
    EtcdStatus status = new EtcdStatus();
    status.setConditions(List.of(c));
    return status;
  }
}
