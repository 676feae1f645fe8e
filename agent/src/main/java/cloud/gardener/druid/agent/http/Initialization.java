package cloud.gardener.druid.agent.http;

import cloud.gardener.druid.agent.init.DataDirValidator.Mode;
import cloud.gardener.druid.agent.init.InitStatus;
import cloud.gardener.druid.agent.restore.RestoreProgress;
import java.util.Optional;

/** The agent's initialisation, as much of it as the agent API reports and triggers. */
public interface Initialization {

  InitStatus initStatus();

  /** Why the last attempt failed; null when none did. */
  String initError();

  RestoreProgress restoreProgress();

  /** Asks for another initialisation attempt now (after a failure), in the given mode. */
  void triggerInitialization(Optional<Mode> mode);
}
