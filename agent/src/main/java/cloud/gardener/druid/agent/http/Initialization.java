package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.agent.init.DataDirValidator.Mode;
import cloud.gardener.druid.agent.restore.RestoreProgress;
import cloud.gardener.druid.api.agent.InitStatus;
import java.util.Optional;

/** The agent's initialisation, as much of it as the agent API reports and triggers. */
public interface Initialization {

  InitStatus initStatus();

  /** Why the last attempt failed; null when none did. */
  String initError();

  /** The restore running now, or the last one; empty when none ran since the agent started. */
  Optional<RestoreProgress.View> restore();

  /** Asks for another initialisation attempt now (after a failure), in the given mode. */
  void triggerInitialization(Optional<Mode> mode);
}
