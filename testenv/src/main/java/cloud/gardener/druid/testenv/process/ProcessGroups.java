package cloud.gardener.druid.testenv.process;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** Signals whole process groups with {@code kill(1)}; the JDK can only signal single pids. */
public final class ProcessGroups {

  private ProcessGroups() {
  }

  /** SIGKILL to every process of group {@code pgid}; a missing group is not an error. */
  public static void kill(long pgid) {
    signal(pgid, "KILL");
  }

  public static void terminate(long pgid) {
    signal(pgid, "TERM");
  }

  /** Whether any process of the group is alive. */
  public static boolean alive(long pgid) {
    return signal(pgid, "0");
  }

  private static boolean signal(long pgid, String signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-s", signal, "--", "-" + pgid)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      return kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
