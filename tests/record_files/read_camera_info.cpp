// tests/record_files/read_camera_info.cpp: a camera_info YAML file read by
// the two C++ readers robotics code uses, each as its users do:
//   yaml-cpp          as ROS's camera_calibration_parsers (readCalibrationYml:
//                     YAML::LoadFile, as<int>, as<std::string>, rows x cols
//                     `data` elements as<double>);
//   cv::FileStorage   as OpenCV programs read ROS calibration files (the
//                     file opened with its format guessed from its first
//                     bytes, `data` iterated as reals).
// Prints what each read, one line per reader, numbers with 17 significant
// digits:
//   <reader> <width> <height> <name> <model> K <9> D <n> R <9> P <12>
// and exits 0 when both read the same, 1 when they differ or either
// refuses the file (its error on stderr).
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <vector>
#include <opencv2/core.hpp>
#include <yaml-cpp/yaml.h>

namespace {

struct Calib {
  int width = 0, height = 0;
  std::string name, model;
  std::vector<double> K, D, R, P;
};

std::string line(const char *reader, const Calib &c) {
  std::ostringstream o;
  o.precision(17);
  o << reader << ' ' << c.width << ' ' << c.height << ' ' << c.name << ' ' << c.model;
  const std::pair<const char *, const std::vector<double> *> ms[] = {
      {"K", &c.K}, {"D", &c.D}, {"R", &c.R}, {"P", &c.P}};
  for (const auto &m : ms) {
    o << ' ' << m.first;
    for (double v : *m.second) o << ' ' << v;
  }
  return o.str();
}

std::vector<double> yaml_matrix(const YAML::Node &n, int rows, int cols) {
  if (n["rows"].as<int>() != rows || (cols > 0 && n["cols"].as<int>() != cols))
    throw std::runtime_error("matrix of unexpected shape");
  int count = n["rows"].as<int>() * n["cols"].as<int>();
  std::vector<double> v;
  for (int i = 0; i < count; ++i) v.push_back(n["data"][i].as<double>());
  if (n["data"].size() != (size_t)count) throw std::runtime_error("data length differs from rows x cols");
  return v;
}

Calib read_yaml_cpp(const char *path) {
  YAML::Node doc = YAML::LoadFile(path);
  Calib c;
  c.width = doc["image_width"].as<int>();
  c.height = doc["image_height"].as<int>();
  c.name = doc["camera_name"].as<std::string>();
  c.model = doc["distortion_model"].as<std::string>();
  c.K = yaml_matrix(doc["camera_matrix"], 3, 3);
  c.D = yaml_matrix(doc["distortion_coefficients"], 1, 0);
  c.R = yaml_matrix(doc["rectification_matrix"], 3, 3);
  c.P = yaml_matrix(doc["projection_matrix"], 3, 4);
  return c;
}

std::vector<double> cv_matrix(const cv::FileNode &n, int rows, int cols) {
  if ((int)n["rows"] != rows || (cols > 0 && (int)n["cols"] != cols))
    throw std::runtime_error("matrix of unexpected shape");
  cv::FileNode data = n["data"];
  if (!data.isSeq() || (int)data.size() != (int)n["rows"] * (int)n["cols"])
    throw std::runtime_error("data is not a sequence of rows x cols");
  std::vector<double> v;
  for (cv::FileNodeIterator it = data.begin(); it != data.end(); ++it) {
    if (!(*it).isReal()) throw std::runtime_error("an element is not a real");
    v.push_back((double)*it);
  }
  return v;
}

Calib read_opencv(const char *path) {
  cv::FileStorage fs(path, cv::FileStorage::READ);
  if (!fs.isOpened()) throw std::runtime_error("cv::FileStorage did not open the file");
  Calib c;
  c.width = (int)fs["image_width"];
  c.height = (int)fs["image_height"];
  c.name = (std::string)fs["camera_name"];
  c.model = (std::string)fs["distortion_model"];
  c.K = cv_matrix(fs["camera_matrix"], 3, 3);
  c.D = cv_matrix(fs["distortion_coefficients"], 1, 0);
  c.R = cv_matrix(fs["rectification_matrix"], 3, 3);
  c.P = cv_matrix(fs["projection_matrix"], 3, 4);
  return c;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: read_camera_info FILE.yaml\n");
    return 2;
  }
  std::string a, b;
  try {
    a = line("yaml-cpp", read_yaml_cpp(argv[1]));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "yaml-cpp: %s: %s\n", argv[1], e.what());
    return 1;
  }
  try {
    b = line("opencv", read_opencv(argv[1]));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "opencv: %s: %s\n", argv[1], e.what());
    return 1;
  }
  std::printf("%s\n%s\n", a.c_str(), b.c_str());
  if (a.substr(a.find(' ')) != b.substr(b.find(' '))) {
    std::fprintf(stderr, "the readers differ\n");
    return 1;
  }
  return 0;
}
