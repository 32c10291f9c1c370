import java.lang.management.ManagementFactory;

import org.apache.jena.Jena;
import org.apache.jena.graph.Graph;
import org.apache.jena.riot.RDFDataMgr;
import org.apache.jena.shacl.ShaclValidator;
import org.apache.jena.shacl.Shapes;
import org.apache.jena.shacl.ValidationReport;
import org.apache.jena.shacl.validation.Severity;

/**
 * Jena SHACL on bench_shacl's files: {@code java ShaclValidate DATA.nt SHAPES.ttl} prints
 * the report's count of sh:Violation results, then on stderr Jena's version and the
 * milliseconds from the JVM's start to main, main to the data and shapes read (Jena's
 * own start-up included), and the shapes' parse and validation. With no argument it
 * prints 0 and stops: the JVM's start-up alone, timed as a process of its own.
 */
public class ShaclValidate {
    public static void main(String[] args) {
        long start = ManagementFactory.getRuntimeMXBean().getStartTime();
        long main = System.currentTimeMillis();
        if (args.length == 0) {
            System.out.println(0);
            return;
        }
        Graph data = RDFDataMgr.loadGraph(args[0]);
        Graph shapesGraph = RDFDataMgr.loadGraph(args[1]);
        long read = System.currentTimeMillis();
        Shapes shapes = Shapes.parse(shapesGraph);
        ValidationReport report = ShaclValidator.get().validate(shapes, data);
        long validated = System.currentTimeMillis();
        long violations = report.getEntries().stream()
            .filter(entry -> entry.severity().equals(Severity.Violation))
            .count();
        System.out.println(violations);
        System.err.printf("Jena %s: JVM start to main %d ms, read %d ms, validate %d ms%n",
            Jena.VERSION, main - start, read - main, validated - read);
    }
}
