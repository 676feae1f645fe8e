package cloud.gardener.druid.api.v1alpha1;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** Copies the backups of one store to another (e.g. during a control plane migration). */
@Group(Etcd.GROUP)
@Version(Etcd.VERSION)
@Kind("EtcdCopyBackupsTask")
@Plural("etcdcopybackupstasks")
@Singular("etcdcopybackupstask")
public class EtcdCopyBackupsTask
    extends CustomResource<EtcdCopyBackupsTaskSpec, EtcdCopyBackupsTaskStatus>
    implements Namespaced {
}
