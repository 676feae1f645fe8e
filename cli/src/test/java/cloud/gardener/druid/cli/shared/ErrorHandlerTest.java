package cloud.gardener.druid.cli.shared;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ErrorHandlerTest {

  @Test
  void namesTheCauseOfAWrappedError() {
    var e = new IllegalStateException("Error starting operator",
        new IllegalArgumentException("renewDeadline must be greater than retryPeriod",
            new IOException()));

    assertThat(ErrorHandler.describe(e)).isEqualTo(
        "Error starting operator: renewDeadline must be greater than retryPeriod: IOException");
  }

  @Test
  void doesNotRepeatACauseWhoseMessageItAlreadySays() {
    var cause = new IOException("connection refused");
    var e = new RuntimeException(cause);

    assertThat(ErrorHandler.describe(e)).isEqualTo("java.io.IOException: connection refused");
  }
}
