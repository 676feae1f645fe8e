package cloud.gardener.druid.operator.volume;

/** What it takes to bring one member's volume to the desired spec (docs/volumes.md). */
public enum VolumeChange {
  /** The volume matches. */
  NONE,
  /** Only the size grows and the class allows expansion: patch the PVC, nothing is deleted. */
  GROW,
  /** Class, template or a shrink: delete and recreate, after confirmation and a snapshot. */
  REPLACE
}
