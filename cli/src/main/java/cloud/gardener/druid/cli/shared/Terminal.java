package cloud.gardener.druid.cli.shared;

import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import picocli.CommandLine;

/**
 * The process's stdout and stderr as picocli writers that flush on every write. picocli's own
 * writers flush only on println: a command that ends with {@code print} and then returns to
 * {@code System.exit} lost its whole output (issue 29). Set once, in the entry points.
 */
public final class Terminal {

  private Terminal() {
  }

  /** {@code cli} (and its subcommands) writing straight to the process's stdout and stderr. */
  static CommandLine attach(CommandLine cli) {
    return cli.setOut(flushing(System.out)).setErr(flushing(System.err));
  }

  /** Runs {@code args} on {@code cli} attached to the terminal; flushes before it returns. */
  public static int execute(CommandLine cli, String... args) {
    attach(cli);
    try {
      return cli.execute(args);
    } finally {
      cli.getOut().flush();
      cli.getErr().flush();
    }
  }

  static PrintWriter flushing(OutputStream stream) {
    return new FlushingWriter(stream);
  }

  /** Every print, println, printf and write reaches the stream before it returns. */
  private static final class FlushingWriter extends PrintWriter {

    FlushingWriter(OutputStream stream) {
      super(new OutputStreamWriter(stream, Charset.defaultCharset()), true);
    }

    @Override
    public void write(int c) {
      super.write(c);
      flush();
    }

    @Override
    public void write(char[] buf, int off, int len) {
      super.write(buf, off, len);
      flush();
    }

    @Override
    public void write(String s, int off, int len) {
      super.write(s, off, len);
      flush();
    }
  }
}
