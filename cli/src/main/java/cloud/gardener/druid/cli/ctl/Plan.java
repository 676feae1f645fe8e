package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import java.util.List;
import java.util.function.UnaryOperator;

/** What a changing command decided for an Etcd: an edit it will make, or why it refuses. */
sealed interface Plan {

  /** The lines that say what will happen, then the edit of the Etcd that does it. */
  record Edit(List<String> steps, UnaryOperator<Etcd> edit) implements Plan {
  }

  /** Nothing is changed; the reason says why and what to do instead. */
  record Refusal(String reason) implements Plan {
  }
}
