// Registers service instances with Apache Curator's service discovery (curator-x-discovery 5.4.0, Debian's jar)
// and reports what the discovery API itself returns for them, so a test can compare ZooScope's decoding of the
// nodes with Curator's own reading. Usage: DiscoveryDriver <connectString> <basePath> <service> <count>.
// stdout: one JSON line per instance as queryForInstances returns it, then "ready"; exits when stdin closes.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.x.discovery.*;

public class DiscoveryDriver {
  public static void main(String[] args) throws Exception {
    String connectString = args[0], basePath = args[1], service = args[2];
    int count = Integer.parseInt(args[3]);
    CuratorFramework client = CuratorFrameworkFactory.newClient(connectString, 15000, 15000, new RetryNTimes(3, 500));
    client.start();
    client.blockUntilConnected();
    ServiceDiscovery<Void> discovery = ServiceDiscoveryBuilder.builder(Void.class).client(client).basePath(basePath).build();
    discovery.start();
    for (int i = 0; i < count; i++) {
      ServiceInstance<Void> instance = ServiceInstance.<Void>builder().name(service).address("10.1.0." + (i + 1)).port(8080 + i)
          .uriSpec(new UriSpec("{scheme}://{address}:{port}")).build();
      discovery.registerService(instance);
    }
    for (ServiceInstance<Void> found : discovery.queryForInstances(service)) {
      System.out.println("{\"id\":\"" + found.getId() + "\",\"name\":\"" + found.getName() + "\",\"address\":\"" + found.getAddress()
          + "\",\"port\":" + found.getPort() + ",\"registrationTimeUTC\":" + found.getRegistrationTimeUTC()
          + ",\"serviceType\":\"" + found.getServiceType() + "\"}");
    }
    System.out.println("ready");
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    while (in.readLine() != null) { /* hold the registrations until the test closes stdin */ }
    discovery.close();
    client.close();
  }
}
