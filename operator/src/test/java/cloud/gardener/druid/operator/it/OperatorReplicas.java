package cloud.gardener.druid.operator.it;

import java.util.List;

/** The operator replicas a {@link WithOperator} class runs, in start order. */
public record OperatorReplicas(List<OperatorHarness> all) {

  public OperatorReplicas {
    all = List.copyOf(all);
  }

  public OperatorHarness get(int index) {
    return all.get(index);
  }
}
