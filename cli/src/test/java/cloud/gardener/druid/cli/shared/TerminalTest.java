package cloud.gardener.druid.cli.shared;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

class TerminalTest {

  @Test
  void everyKindOfWriteReachesTheStreamAtOnce() {
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    PrintWriter out = Terminal.flushing(stream);

    out.print("no newline");
    assertThat(stream.toString(Charset.defaultCharset())).isEqualTo("no newline");
    out.printf(" %d", 42);
    out.write('!');
    out.write(new char[] {'a', 'b'}, 0, 2);
    assertThat(stream.toString(Charset.defaultCharset())).isEqualTo("no newline 42!ab");
  }

  @Command(name = "fails")
  static final class PrintsThenFails implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
      spec.commandLine().getOut().print("partial");
      throw new IllegalStateException("broken");
    }
  }

  @Test
  void theErrorHandlerFlushesWhatTheCommandPrintedBeforeItsError() {
    StringBuilder order = new StringBuilder();
    CommandLine cli = new CommandLine(new PrintsThenFails())
        .setExecutionExceptionHandler(new ErrorHandler());
    cli.setOut(new PrintWriter(new java.io.Writer() {
      @Override
      public void write(char[] cbuf, int off, int len) {
        order.append(cbuf, off, len);
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    }) {
      @Override
      public void flush() {
        super.flush();
        order.append("|out-flushed|");
      }
    });
    cli.setErr(new PrintWriter(new java.io.StringWriter()));

    assertThat(cli.execute()).isEqualTo(ErrorHandler.EXIT_FAILED);
    assertThat(order.toString()).startsWith("partial|out-flushed|");
  }
}
