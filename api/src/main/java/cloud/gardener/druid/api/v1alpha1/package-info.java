/**
 * The {@code druid.gardener.cloud/v1alpha1} API: {@code Etcd}, {@code EtcdOpsTask} and
 * {@code EtcdCopyBackupsTask}, field-for-field compatible with gardener/etcd-druid, plus the
 * optional additions of this operator (member revisions, the
 * {@code VolumesUpToDate} condition, {@code spec.hibernation}, more ops task operations).
 *
 * <p>Classes here are plain data holders for Jackson and the CRD generator; every type
 * omits null fields when serialised so that an object round-trips unchanged.
 */
package cloud.gardener.druid.api.v1alpha1;
