#include "chaindem/output/xdmf_writer.hpp"

#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>

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

void write_xdmf(std::ostream& x, const std::string& h5_file_name,
                const std::vector<double>& frame_times, std::int64_t particles,
                const layout::OutputSelection& output) {
  const std::string file = xml_escaped(h5_file_name);
  const std::size_t frames = frame_times.size();
  const std::string chain = std::string("/") + layout::particles_group + "/";
  x << std::setprecision(17);
  x << "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
    << "<Xdmf Version=\"2.0\">\n <Domain>\n"
    << "  <Grid Name=\"chain\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  // Frame k of a frames x N x 3 dataset.
  auto slab = [&](const layout::ParticleColumn& column, std::size_t k) {
    const std::string dataset = chain + column.name + "/" + layout::value_dataset;
    std::ostringstream s;
    s << "       <DataItem ItemType=\"HyperSlab\" Dimensions=\"1 " << particles
      << " 3\" NumberType=\"Float\" Precision=\"8\" Type=\"HyperSlab\">\n"
      << "        <DataItem Dimensions=\"3 3\" NumberType=\"Int\" Format=\"XML\">" << k
      << " 0 0  1 1 1  1 " << particles << " 3</DataItem>\n"
      << "        <DataItem Dimensions=\"" << frames << " " << particles
      << " 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << file << ":" << dataset
      << "</DataItem>\n"
      << "       </DataItem>\n";
    return s.str();
  };
  for (std::size_t k = 0; k < frames; ++k) {
    x << "   <Grid Name=\"frame " << k << "\" GridType=\"Uniform\">\n"
      << "    <Time Value=\"" << frame_times[k] << "\"/>\n"
      << "    <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << particles
      << "\" NodesPerElement=\"1\"/>\n"
      << "    <Geometry GeometryType=\"XYZ\">\n"
      << slab(layout::particle_columns[0], k) << "    </Geometry>\n";
    for (const layout::ParticleColumn& column : layout::particle_columns)
      if (column.id != layout::particle_columns[0].id && output.has(column.id))
        x << "    <Attribute Name=\"" << column.name
          << "\" AttributeType=\"Vector\" Center=\"Node\">\n"
          << slab(column, k) << "    </Attribute>\n";
    x << "    <Attribute Name=\"" << layout::particle_radius.name
      << "\" AttributeType=\"Scalar\" Center=\"Node\">\n"
      << "     <DataItem Dimensions=\"" << particles
      << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << file << ":" << chain
      << layout::particle_radius.name << "</DataItem>\n    </Attribute>\n"
      << "    <Attribute Name=\"" << layout::particle_species.name
      << "\" AttributeType=\"Scalar\" Center=\"Node\">\n"
      << "     <DataItem Dimensions=\"" << particles
      << "\" NumberType=\"Int\" Precision=\"4\" Format=\"HDF\">" << file << ":" << chain
      << layout::particle_species.name << "</DataItem>\n    </Attribute>\n"
      << "   </Grid>\n";
  }
  x << "  </Grid>\n </Domain>\n</Xdmf>\n";
}

}  // namespace chaindem
