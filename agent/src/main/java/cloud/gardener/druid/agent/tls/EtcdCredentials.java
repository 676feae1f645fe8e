package cloud.gardener.druid.agent.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The files of an etcd user's name and password (the Secret of {@code spec.etcd.authSecretRef},
 * keys {@code username} and {@code password}). They are read anew at every authentication, so
 * a rotated Secret takes effect without a restart; the values never leave this process except
 * in etcd's authentication request.
 */
public record EtcdCredentials(Path username, Path password) {

  public static EtcdCredentials in(Path dir) {
    return new EtcdCredentials(dir.resolve("username"), dir.resolve("password"));
  }

  /** The user and password as the files hold them now, without trailing line breaks. */
  public Values read() throws IOException {
    return new Values(text(username), text(password));
  }

  /** Names the files, never their content: for messages. */
  public String describe() {
    return "the user in " + username + " with the password in " + password;
  }

  private static String text(Path file) throws IOException {
    String s = Files.readString(file, StandardCharsets.UTF_8);
    int end = s.length();
    while (end > 0 && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) {
      end--;
    }
    if (end == 0) {
      throw new IOException(file + " is empty");
    }
    return s.substring(0, end);
  }

  /** A user and password as read; {@link #toString()} does not show the password. */
  public record Values(String username, String password) {
    @Override
    public String toString() {
      return "Values[username=" + username + ", password=<redacted>]";
    }
  }
}
