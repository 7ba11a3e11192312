#include "chaindem/output/xdmf_writer.hpp"

#include <charconv>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string_view>

namespace chaindem {

std::string xdmf_path_for(const std::string& h5_path) {
  return std::filesystem::path(h5_path).replace_extension(".xdmf").string();
}

namespace {
std::string xml_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}
}  // namespace

// The large datasets are declared once, at the top of the domain, and each frame refers to them
// (XDMF's Reference, an XPath); what every frame repeats is an XML entity of the document's
// type declaration, which the reader's parser expands. A frame so costs about 150 bytes of XML
// (its index, twice per vector, and its time), not its datasets' full descriptions.
void write_xdmf(std::ostream& x, const std::string& h5_file_name,
                const std::vector<double>& frame_times, std::int64_t particles,
                const layout::OutputSelection& output) {
  const std::string file = xml_escaped(h5_file_name);
  const std::string chain = std::string("/") + layout::particles_group + "/";
  std::vector<const layout::ParticleColumn*> columns;  // position first: it places the points
  for (const layout::ParticleColumn& column : layout::particle_columns)
    if (output.has(column.id)) columns.push_back(&column);
  // Entities (each well-formed on its own, as XML requires): D, the dimensions of one frame; C,
  // what follows a frame's start row in its hyperslab; R<c>, the dataset of column c; T, the
  // points' topology; K, the constant attributes. Entity text is a quoted literal: its quotes
  // are written &#34;.
  auto quote = [](const std::string& text) {
    std::string out;
    for (const char ch : text) out += ch == '"' ? std::string("&#34;") : std::string(1, ch);
    return out;
  };
  auto reference = [](const char* name) {
    return std::string("<DataItem Reference=\"/Xdmf/Domain/DataItem[@Name='") + name + "']\"/>";
  };
  particles = static_cast<std::int64_t>(output.particle_count(static_cast<std::size_t>(particles)));
  std::ostringstream n;
  n << particles;
  const std::string count = n.str();
  // A file of x alone (output.components() 1) places its points at (x, 0, 0): Y and Z are zero
  // times the radii, an XDMF function, and its vectors are scalars.
  const bool x_alone = output.components() == 1;
  const std::string d = std::to_string(output.components());
  // D: the dimensions of one frame's hyperslab, N values of x alone, else 1 x N x 3.
  x << "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" [\n"
    << "<!ENTITY D \"" << (x_alone ? count : "1 " + count + " 3")
    << "\">\n<!ENTITY C \" 0 0 1 1 1 1 " << count << " " << d << "\">\n";
  for (std::size_t c = 0; c < columns.size(); ++c)
    x << "<!ENTITY R" << c << " \"" << quote(reference(columns[c]->name)) << "\">\n";
  if (x_alone)
    x << "<!ENTITY Z \""
      << quote("<DataItem ItemType=\"Function\" Function=\"0*$0\" Dimensions=\"" + count + "\">" +
               reference(layout::particle_radius.name) + "</DataItem>")
      << "\">\n";
  // The constant attributes state their size: ParaView's XDMF reader reports an error for an
  // attribute whose data item is a Reference without it.
  const std::string sized = "\" Center=\"Node\" Dimensions=\"" + count + "\">";
  x << "<!ENTITY K \""
    << quote(std::string("<Attribute Name=\"") + layout::particle_radius.name + sized +
             reference(layout::particle_radius.name) + "</Attribute><Attribute Name=\"" +
             layout::particle_species.name + sized + reference(layout::particle_species.name) +
             "</Attribute>")
    << "\">\n"
    << "<!ENTITY T \"" << quote("<Topology Reference=\"/Xdmf/Domain/Topology[1]\"/>") << "\">\n"
    << "]>\n<Xdmf Version=\"2.0\">\n <Domain>\n";
  for (const layout::ParticleColumn* column : columns)
    x << "  <DataItem Name=\"" << column->name << "\" Dimensions=\"" << frame_times.size() << " "
      << particles << " " << d << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << file
      << ":" << chain << column->name << "/" << layout::value_dataset << "</DataItem>\n";
  x << "  <DataItem Name=\"" << layout::particle_radius.name << "\" Dimensions=\"" << particles
    << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << file << ":" << chain
    << layout::particle_radius.name << "</DataItem>\n"
    << "  <DataItem Name=\"" << layout::particle_species.name << "\" Dimensions=\"" << particles
    << "\" NumberType=\"Int\" Precision=\"4\" Format=\"HDF\">" << file << ":" << chain
    << layout::particle_species.name << "</DataItem>\n"
    << "  <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << particles
    << "\" NodesPerElement=\"1\"/>\n"
    << "  <Grid Name=\"chain\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  // Frame k of column c: a hyperslab of its frames x N x D dataset.
  auto slab = [&x](std::size_t k, std::size_t c) {
    x << "<DataItem ItemType=\"HyperSlab\" Dimensions=\"&D;\"><DataItem Dimensions=\"3 3\">" << k
      << "&C;</DataItem>&R" << c << ";</DataItem>";
  };
  char time[32];
  for (std::size_t k = 0; k < frame_times.size(); ++k) {
    const auto end = std::to_chars(time, time + sizeof time, frame_times[k]).ptr;  // exact
    x << "<Grid Name=\"" << k << "\"><Time Value=\"" << std::string_view(time, end - time)
      << "\"/>&T;<Geometry GeometryType=\"" << (x_alone ? "X_Y_Z" : "XYZ") << "\">";
    slab(k, 0);
    x << (x_alone ? "&Z;&Z;</Geometry>" : "</Geometry>");
    for (std::size_t c = 1; c < columns.size(); ++c) {
      x << "<Attribute Name=\"" << columns[c]->name << "\" AttributeType=\""
        << (x_alone ? "Scalar" : "Vector") << "\">";
      slab(k, c);
      x << "</Attribute>";
    }
    x << "&K;</Grid>\n";
  }
  x << "  </Grid>\n </Domain>\n</Xdmf>\n";
}

std::size_t xdmf_bytes(std::int64_t frames, std::int64_t particles,
                       const layout::OutputSelection& output) {
  if (frames <= 0) return 0;
  // One frame and two, written with a time of full length; the others add what the second did,
  // and the digits their larger indices take (twice per vector: its name and its hyperslab).
  const double t = 1.2345678901234567e-3;
  auto size = [&](std::vector<double> times) {
    std::ostringstream x;
    write_xdmf(x, "output.h5", times, particles, output);
    return static_cast<std::size_t>(x.tellp());
  };
  const std::size_t one = size({t}), two = size({t, t});
  std::size_t vectors = 0;
  for (const layout::ParticleColumn& column : layout::particle_columns)
    vectors += output.has(column.id) ? 1 : 0;
  const auto digits = std::to_string(frames).size() - 1;
  return one + static_cast<std::size_t>(frames - 1) * (two - one + digits * (vectors + 1));
}

}  // namespace chaindem
