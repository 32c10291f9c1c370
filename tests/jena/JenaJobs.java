// Apache Jena's side of the interoperability tests (tests/jena.py compiles and runs it):
// a batch of jobs in one JVM, as its start costs more than the jobs.
//
// java JenaJobs JOBS.json: JOBS.json is a JSON array of jobs, each an object with an
// "id" and a "kind"; each job writes its output to its "out" file and this program prints
// one JSON object a line, {"id", "warnings", "errors"}, the parser's and validator's
// messages ("file:line:col: text"), or {"id", "exception"} when the job failed.
//   parse: RIOT reads "in" as "lang" (the name of a constant of Jena's Lang: TURTLE,
//          JSONLD10, ...) into a dataset, written to "out" as N-Quads.
//   query: ARQ runs the SPARQL query of the file "query" over the N-Quads file "in" with
//          the merge of all its graphs, default and named, as the default graph (each
//          triple once; the file is read once for all its queries); the results
//          are written to "out" as SPARQL 1.1 Query Results JSON, in ARQ's order.
//   shacl: Jena SHACL validates the data graph "data" (N-Triples) with the shapes graph
//          "shapes" (N-Triples); "out" gets N-Quads of the data (default graph), the
//          shapes (<urn:x-jena:shapes>) and the report (<urn:x-jena:report>), written
//          together so that a blank node of the data or shapes has one label throughout.

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.apache.jena.atlas.json.JSON;
import org.apache.jena.atlas.json.JsonArray;
import org.apache.jena.atlas.json.JsonObject;
import org.apache.jena.atlas.json.JsonValue;
import org.apache.jena.graph.Graph;
import org.apache.jena.graph.NodeFactory;
import org.apache.jena.query.Dataset;
import org.apache.jena.query.DatasetFactory;
import org.apache.jena.query.Query;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.query.QueryExecutionFactory;
import org.apache.jena.query.QueryFactory;
import org.apache.jena.query.ResultSetFormatter;
import org.apache.jena.query.Syntax;
import org.apache.jena.riot.Lang;
import org.apache.jena.riot.RDFDataMgr;
import org.apache.jena.riot.RDFParser;
import org.apache.jena.riot.system.ErrorHandler;
import org.apache.jena.shacl.ShaclValidator;
import org.apache.jena.shacl.Shapes;
import org.apache.jena.shacl.ValidationReport;
import org.apache.jena.sparql.core.DatasetGraph;
import org.apache.jena.sparql.core.DatasetGraphFactory;
import org.apache.jena.sparql.graph.GraphFactory;
import org.apache.jena.sys.JenaSystem;

public class JenaJobs {
    /** Every message of the parser, kept (RIOT's default handler logs them and goes on). */
    static final class Collected implements ErrorHandler {
        final String file;
        final JsonArray warnings = new JsonArray();
        final JsonArray errors = new JsonArray();

        Collected(String file) {
            this.file = file;
        }

        private String at(String message, long line, long col) {
            return file + ":" + line + ":" + col + ": " + message;
        }

        @Override
        public void warning(String message, long line, long col) {
            warnings.add(at(message, line, col));
        }

        @Override
        public void error(String message, long line, long col) {
            errors.add(at(message, line, col));
        }

        @Override
        public void fatal(String message, long line, long col) {
            errors.add(at(message, line, col));
            throw new IllegalStateException(at(message, line, col));
        }
    }

    static DatasetGraph read(String file, Lang lang, Collected said) {
        DatasetGraph dsg = DatasetGraphFactory.create();
        RDFParser.source(file).forceLang(lang).errorHandler(said).parse(dsg);
        return dsg;
    }

    static String text(JsonObject job, String key) {
        return job.get(key).getAsString().value();
    }

    static void write(String file, DatasetGraph dsg) throws IOException {
        try (OutputStream out = new FileOutputStream(file)) {
            RDFDataMgr.write(out, dsg, Lang.NQUADS);
        }
    }

    public static void main(String[] args) throws IOException {
        JenaSystem.init();
        JsonArray jobs;
        try (InputStream in = new FileInputStream(args[0])) {
            jobs = JSON.parseAny(in).getAsArray();
        }
        Map<String, Dataset> loaded = new HashMap<>();
        Map<String, Shapes> shapesRead = new HashMap<>();
        for (JsonValue value : jobs) {
            JsonObject job = value.getAsObject();
            JsonObject said = new JsonObject();
            said.put("id", text(job, "id"));
            try {
                String kind = text(job, "kind");
                String out = text(job, "out");
                Collected collected = new Collected(kind.equals("shacl") ? text(job, "data") : text(job, "in"));
                if (kind.equals("parse")) {
                    Lang lang = (Lang) Lang.class.getField(text(job, "lang")).get(null);
                    write(out, read(text(job, "in"), lang, collected));
                } else if (kind.equals("query")) {
                    String in = text(job, "in");
                    Dataset union = loaded.get(in);
                    if (union == null) {
                        // The default graph and every named graph, merged: a set of triples,
                        // so a triple of two graphs is one (Jena's getUnionGraph leaves the
                        // default graph out).
                        DatasetGraph dsg = read(in, Lang.NQUADS, collected);
                        Graph merged = GraphFactory.createDefaultGraph();
                        dsg.find().forEachRemaining(quad -> merged.add(quad.asTriple()));
                        union = DatasetFactory.wrap(DatasetGraphFactory.wrap(merged));
                        loaded.put(in, union);
                    }
                    String sparql = Files.readString(Path.of(text(job, "query")), StandardCharsets.UTF_8);
                    Query query = QueryFactory.create(sparql, Syntax.syntaxSPARQL_11);
                    try (QueryExecution exec = QueryExecutionFactory.create(query, union);
                            OutputStream stream = new FileOutputStream(out)) {
                        ResultSetFormatter.outputAsJSON(stream, exec.execSelect());
                    }
                } else if (kind.equals("shacl")) {
                    Graph data = read(text(job, "data"), Lang.NTRIPLES, collected).getDefaultGraph();
                    // Shapes files of the same text are read and compiled once.
                    String shapesText = Files.readString(Path.of(text(job, "shapes")), StandardCharsets.UTF_8);
                    Shapes parsed = shapesRead.get(shapesText);
                    if (parsed == null) {
                        Collected shapesSaid = new Collected(text(job, "shapes"));
                        Graph shapes = read(text(job, "shapes"), Lang.NTRIPLES, shapesSaid).getDefaultGraph();
                        shapesSaid.warnings.forEach(collected.warnings::add);
                        shapesSaid.errors.forEach(collected.errors::add);
                        parsed = ShaclValidator.get().parse(shapes);
                        shapesRead.put(shapesText, parsed);
                    }
                    Graph shapes = parsed.getGraph();
                    ValidationReport report = ShaclValidator.get().validate(parsed, data);
                    DatasetGraph together = DatasetGraphFactory.createGeneral();
                    together.setDefaultGraph(data);
                    together.addGraph(NodeFactory.createURI("urn:x-jena:shapes"), shapes);
                    together.addGraph(NodeFactory.createURI("urn:x-jena:report"), report.getGraph());
                    write(out, together);
                } else {
                    throw new IllegalArgumentException("no job of kind " + kind);
                }
                said.put("warnings", collected.warnings);
                said.put("errors", collected.errors);
            } catch (Exception e) {
                said.put("exception", e.toString());
            }
            System.out.println(JSON.toStringFlat(said));
            System.out.flush();
        }
    }
}
