package cloud.gardener.druid.operator.task;

import static org.assertj.core.api.Assertions.assertThat;

import cloud.gardener.druid.operator.agent.BackgroundCalls;
import cloud.gardener.druid.operator.task.AgentOperation.Failed;
import cloud.gardener.druid.operator.task.AgentOperation.Result;
import cloud.gardener.druid.operator.task.AgentOperation.Succeeded;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** How a task's run that ended in the background becomes the task's result. */
class AgentOperationTest {

  @Test
  void aRunCancelledAtItsDeadlineFailsAsATimeoutAndACrashAsAnExecutionError() {
    Instant deadline = Instant.parse("2026-01-01T00:01:00Z");
    assertThat(AgentOperation.resultOf(new BackgroundCalls.Returned<>(new Succeeded("done"))))
        .isEqualTo(new Succeeded("done"));
    Result timedOut = AgentOperation.resultOf(new BackgroundCalls.TimedOut<>(deadline));
    assertThat(((Failed) timedOut).error().code()).isEqualTo(TaskError.TIMEOUT);
    assertThat(((Failed) timedOut).error().description()).contains(deadline.toString());
    Result crashed = AgentOperation.resultOf(new BackgroundCalls.Threw<>(
        new IllegalStateException("boom")));
    assertThat(((Failed) crashed).error().code()).isEqualTo(TaskError.EXECUTION);
  }
}
