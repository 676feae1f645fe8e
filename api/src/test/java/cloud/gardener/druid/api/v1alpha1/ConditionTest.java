package cloud.gardener.druid.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.api.ConditionTypes;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionTest {

  @Test
  void findsTheConditionOfATypeAndNothingInAStatusWithoutConditions() {
    Condition ready = condition(ConditionTypes.READY);
    Condition backup = condition(ConditionTypes.BACKUP_READY);

    assertThat(Condition.find(List.of(ready, backup), ConditionTypes.BACKUP_READY))
        .containsSame(backup);
    assertThat(Condition.find(List.of(ready), ConditionTypes.BACKUP_READY)).isEmpty();
    assertThat(Condition.find(null, ConditionTypes.READY)).isEmpty();
  }

  private static Condition condition(String type) {
    Condition c = new Condition();
    c.setType(type);
    c.setStatus(ConditionTypes.TRUE);
    return c;
  }
}
