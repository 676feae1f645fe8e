package cloud.gardener.druid.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** An etcd cluster managed by the operator. */
@Group(Etcd.GROUP)
@Version(Etcd.VERSION)
@Kind("Etcd")
@Plural("etcds")
@Singular("etcd")
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.ready", type = Type.BOOLEAN)
@AdditionalPrinterColumn(name = "Quorate", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@AdditionalPrinterColumn(name = "All Members Ready",
    jsonPath = ".status.conditions[?(@.type==\"AllMembersReady\")].status")
@AdditionalPrinterColumn(name = "Backup Ready",
    jsonPath = ".status.conditions[?(@.type==\"BackupReady\")].status")
@AdditionalPrinterColumn(name = "Cluster ID Mismatch",
    jsonPath = ".status.conditions[?(@.type==\"ClusterIDMismatch\")].status")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
@AdditionalPrinterColumn(name = "Cluster Size", jsonPath = ".spec.replicas", type = Type.INTEGER,
    priority = 1)
@AdditionalPrinterColumn(name = "Current Replicas", jsonPath = ".status.currentReplicas",
    type = Type.INTEGER, priority = 1)
@AdditionalPrinterColumn(name = "Ready Replicas", jsonPath = ".status.readyReplicas",
    type = Type.INTEGER, priority = 1)
public class Etcd extends CustomResource<EtcdSpec, EtcdStatus> implements Namespaced {

  public static final String GROUP = "druid.gardener.cloud";
  public static final String VERSION = "v1alpha1";
}
