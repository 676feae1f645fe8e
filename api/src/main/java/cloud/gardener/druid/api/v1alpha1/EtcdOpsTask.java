package cloud.gardener.druid.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A one-off operation on an Etcd: a snapshot, a defragmentation, a volume replacement. */
@Group(Etcd.GROUP)
@Version(Etcd.VERSION)
@Kind("EtcdOpsTask")
@Plural("etcdopstasks")
@Singular("etcdopstask")
@ShortNames("eot")
@AdditionalPrinterColumn(name = "Etcd", jsonPath = ".spec.etcdName")
@AdditionalPrinterColumn(name = "State", jsonPath = ".status.state")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
@ValidationRule(value = "has(self.spec)", message = "spec is required")
public class EtcdOpsTask extends CustomResource<EtcdOpsTaskSpec, EtcdOpsTaskStatus>
    implements Namespaced {
}
