package cloud.gardener.druid.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.generator.annotation.ValidationRule;
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
// member names here are <memberNamePrefix or Etcd name>-<i> (upstream: <prefix>-<Etcd name>-<i>)
@ValidationRule(
    value = "!has(self.spec.etcd.additionalAdvertisePeerURLs)"
        + " || self.spec.etcd.additionalAdvertisePeerURLs.all(m, m.memberName.startsWith("
        + Etcd.MEMBER_PREFIX + " + '-')"
        + " && m.memberName.substring(size(" + Etcd.MEMBER_PREFIX + ") + 1).matches('^[0-9]+$'))",
    message = "spec.etcd.additionalAdvertisePeerURLs: member names must be <memberNamePrefix,"
        + " or without one the Etcd resource name>-<index>",
    fieldPath = ".spec.etcd.additionalAdvertisePeerURLs")
@ValidationRule(
    value = "!has(self.spec.etcd.additionalAdvertisePeerURLs)"
        + " || self.spec.etcd.additionalAdvertisePeerURLs.all(m,"
        + " int(m.memberName.substring(m.memberName.lastIndexOf('-') + 1)) < self.spec.replicas)",
    message = "spec.etcd.additionalAdvertisePeerURLs: member name index must be less than"
        + " replicas",
    fieldPath = ".spec.etcd.additionalAdvertisePeerURLs")
@ValidationRule(
    value = "!has(self.spec.etcd.bootstrapWithExistingCluster)"
        + " || !has(oldSelf.spec.etcd.bootstrapWithExistingCluster)"
        + " || !has(self.status) || !has(self.status.conditions)"
        + " || !self.status.conditions.exists(c, c.type == 'BootstrappedWithExistingCluster'"
        + " && c.status == 'False')"
        + " || self.spec.etcd.bootstrapWithExistingCluster.members"
        + " == oldSelf.spec.etcd.bootstrapWithExistingCluster.members",
    message = "spec.etcd.bootstrapWithExistingCluster.members cannot be modified while the"
        + " bootstrap is in progress",
    fieldPath = ".spec.etcd.bootstrapWithExistingCluster")
@ValidationRule(
    value = "!has(self.spec.etcd.bootstrapWithExistingCluster)"
        + " || !has(oldSelf.spec.etcd.bootstrapWithExistingCluster)"
        + " || !has(self.status) || !has(self.status.conditions)"
        + " || !self.status.conditions.exists(c, c.type == 'BootstrappedWithExistingCluster'"
        + " && c.status == 'False')"
        + " || self.spec.etcd.bootstrapWithExistingCluster.clientEndpoints"
        + " == oldSelf.spec.etcd.bootstrapWithExistingCluster.clientEndpoints",
    message = "spec.etcd.bootstrapWithExistingCluster.clientEndpoints cannot be modified while"
        + " the bootstrap is in progress",
    fieldPath = ".spec.etcd.bootstrapWithExistingCluster")
@ValidationRule(
    value = "!has(self.spec.etcd.bootstrapWithExistingCluster)"
        + " || self.spec.etcd.bootstrapWithExistingCluster.members.all(m1,"
        + " self.spec.etcd.bootstrapWithExistingCluster.members.filter(m2,"
        + " m1.name == m2.name).size() == 1)",
    message = "spec.etcd.bootstrapWithExistingCluster.members[*].name must be unique",
    fieldPath = ".spec.etcd.bootstrapWithExistingCluster")
@ValidationRule(
    value = "!has(self.spec.etcd.bootstrapWithExistingCluster)"
        + " || self.spec.etcd.bootstrapWithExistingCluster.members.all(m, !m.name.startsWith("
        + Etcd.MEMBER_PREFIX + " + '-'))",
    message = "spec.etcd.bootstrapWithExistingCluster.members[*].name must not collide with a"
        + " member of this Etcd (must not start with its member name prefix)",
    fieldPath = ".spec.etcd.bootstrapWithExistingCluster")
// etcd changes one minor at a time: against the old spec and against the cluster's version
@ValidationRule(
    value = "!has(self.spec.etcd.version) || !has(oldSelf.spec.etcd.version)"
        + " || " + Etcd.MINOR_DISTANCE_OLD_SPEC + " <= 1",
    messageExpression = "'spec.etcd.version: etcd changes one minor at a time (3.5 <-> 3.6 <->"
        + " 3.7); ' + oldSelf.spec.etcd.version + ' to ' + self.spec.etcd.version"
        + " + ' skips a minor: change to the one in between first'",
    fieldPath = ".spec.etcd.version")
@ValidationRule(
    value = "!has(self.spec.etcd.version) || !has(oldSelf.spec.etcd.version)"
        + " || self.spec.etcd.version == oldSelf.spec.etcd.version"
        + " || !has(oldSelf.status) || !has(oldSelf.status.etcdClusterVersion)"
        + " || " + Etcd.MINOR_DISTANCE_CLUSTER + " <= 1",
    messageExpression = "'spec.etcd.version: the cluster still runs etcd '"
        + " + oldSelf.status.etcdClusterVersion + ' (its cluster version); '"
        + " + self.spec.etcd.version + ' would skip a minor: wait until the change in progress"
        + " is done'",
    fieldPath = ".spec.etcd.version")
// and, while etcd downgrades, against its target: the cluster version already dropped (etcd
// lowers it at once) while members still run the newer minor
@ValidationRule(
    value = "!has(self.spec.etcd.version) || !has(oldSelf.spec.etcd.version)"
        + " || self.spec.etcd.version == oldSelf.spec.etcd.version"
        + " || !has(oldSelf.status) || !has(oldSelf.status.etcdDowngradeTarget)"
        + " || " + Etcd.NEW_MINOR + " >= " + Etcd.DOWNGRADE_MINOR,
    messageExpression = "'spec.etcd.version: etcd is downgrading to '"
        + " + oldSelf.status.etcdDowngradeTarget + ' while members still run the newer etcd; '"
        + " + self.spec.etcd.version + ' would be two minors below them: wait until the"
        + " downgrade is done'",
    fieldPath = ".spec.etcd.version")
public class Etcd extends CustomResource<EtcdSpec, EtcdStatus> implements Namespaced {

  public static final String GROUP = "druid.gardener.cloud";
  public static final String VERSION = "v1alpha1";

  /** CEL: the prefix of this Etcd's member names. */
  /** CEL: the minor of the new spec's version. */
  static final String NEW_MINOR = "int(self.spec.etcd.version.split('.')[1])";
  static final String OLD_MINOR = "int(oldSelf.spec.etcd.version.split('.')[1])";
  static final String CLUSTER_MINOR = "int(oldSelf.status.etcdClusterVersion.split('.')[1])";
  static final String DOWNGRADE_MINOR =
      "int(oldSelf.status.etcdDowngradeTarget.split('.')[1])";
  /** CEL: the square of the distance between two minors (CEL has no abs). */
  static final String MINOR_DISTANCE_OLD_SPEC =
      "(" + NEW_MINOR + " - " + OLD_MINOR + ") * (" + NEW_MINOR + " - " + OLD_MINOR + ")";
  static final String MINOR_DISTANCE_CLUSTER =
      "(" + NEW_MINOR + " - " + CLUSTER_MINOR + ") * (" + NEW_MINOR + " - " + CLUSTER_MINOR + ")";

  static final String MEMBER_PREFIX =
      "(has(self.spec.memberNamePrefix) ? self.spec.memberNamePrefix : self.metadata.name)";
}
