package cloud.gardener.druid.operator.observe;

import cloud.gardener.druid.api.v1alpha1.Etcd;
import java.util.List;

/**
 * Names the EtcdOpsTasks in progress that change an Etcd's members or data. A fresh read:
 * made only right before a step that must not run beside one, never in an idle reconcile.
 */
@FunctionalInterface
public interface RunningTasks {

  /** "name (kind)" of each such task of {@code etcd}, oldest first; empty when there is none. */
  List<String> of(Etcd etcd);
}
