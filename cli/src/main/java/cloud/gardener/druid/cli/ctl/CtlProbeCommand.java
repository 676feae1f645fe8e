package cloud.gardener.druid.cli.ctl;

import cloud.gardener.druid.cli.shared.UserError;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code druid ctl probe URL}: an HTTP GET that exits 0 on a 2xx answer. The images have no
 * shell or curl; the chart's {@code helm test} uses this.
 */
@Command(
    name = "probe",
    mixinStandardHelpOptions = true,
    description = "GET an http(s) URL; exit 0 on a 2xx answer, 1 otherwise.")
final class CtlProbeCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "URL", description = "The URL to get.")
  URI url;

  @Override
  public Integer call() throws InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    try {
      HttpResponse<String> response = client.send(
          HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      spec.commandLine().getOut().println(response.statusCode() + " " + response.body().strip());
      return response.statusCode() / 100 == 2 ? 0 : 1;
    } catch (java.io.IOException | IllegalArgumentException e) {
      throw new UserError("GET " + url + " failed: " + e.getMessage());
    }
  }
}
